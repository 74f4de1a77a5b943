package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RestResponse;

/** Serves PATCH with {@code application/apply-patch+yaml}: server-side apply. */
@FunctionalInterface
public interface ServerSideApply {

    RestResponse handle(ResourceRequest request, byte[] patch);
}

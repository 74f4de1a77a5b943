package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RestResponse;

/** Serves PATCH with {@code application/apply-patch+yaml}: server-side apply. */
@FunctionalInterface
public interface ServerSideApply {

    /** @param response the response form, negotiated before the patch was read */
    RestResponse handle(ResourceRequest request, byte[] patch, ResponseWriter.Negotiated response);
}

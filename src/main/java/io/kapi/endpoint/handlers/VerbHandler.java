package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RestResponse;

/** Serves one verb on any resource; one implementation per verb, routed from a table. */
@FunctionalInterface
public interface VerbHandler {

    RestResponse handle(ResourceRequest request);
}

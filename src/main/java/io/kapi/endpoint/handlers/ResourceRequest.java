package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RestRequest;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.registry.ResourceStore;
import io.kapi.request.RequestContext;
import io.kapi.request.RequestInfo;

/**
 * A request routed to one resource: what the verb handlers receive.
 *
 * @param http the request as received
 * @param resource the resource the path names
 * @param store the resource's REST store (null for resources that are computed, not stored)
 */
public record ResourceRequest(RestRequest http, ApiResource resource, ResourceStore store) {

    /** The request's context, as the filters built it. */
    public RequestContext context() {
        return http.requireContext();
    }

    /** The parsed request (verb, namespace, name, subresource). */
    public RequestInfo info() {
        return context().info();
    }

    /** Whether {@code dryRun=All} was asked for (the write-options filter refused other values). */
    public boolean dryRun() {
        return context().dryRun();
    }
}

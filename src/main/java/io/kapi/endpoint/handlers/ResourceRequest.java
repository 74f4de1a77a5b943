package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RequestInfo;
import io.kapi.endpoint.RestRequest;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.registry.ResourceStore;

/**
 * A request routed to one resource: what the verb handlers receive.
 *
 * @param http the request as received
 * @param info the parsed resource request
 * @param resource the resource the path names
 * @param store the resource's REST store
 */
public record ResourceRequest(RestRequest http, RequestInfo info, ApiResource resource, ResourceStore store) {

    /** Whether {@code dryRun=All} was asked for (400 for any other value, as kube-apiserver). */
    public boolean dryRun() {
        var values = http.query().get("dryRun");
        if (values == null || values.isEmpty()) {
            return false;
        }
        for (String v : values) {
            if (!v.equals("All")) {
                throw io.kapi.machinery.ApiException.badRequest(
                        "Invalid dry run value: [" + String.join(" ", values) + "], supported values: All");
            }
        }
        return true;
    }
}

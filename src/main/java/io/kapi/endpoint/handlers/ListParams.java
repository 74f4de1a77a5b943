package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RestRequest;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GoBool;
import io.kapi.machinery.labels.LabelSelector;
import io.kapi.registry.FieldSelector;
import io.kapi.registry.ListOptions;

/**
 * Reads list and watch options from query parameters: limit, continue, labelSelector, fieldSelector,
 * resourceVersion, resourceVersionMatch, sendInitialEvents and allowWatchBookmarks (booleans as
 * {@link GoBool#query}).
 */
public final class ListParams {

    private ListParams() {
    }

    public static ListOptions read(RestRequest request) {
        return new ListOptions(limit(request.param("limit")), request.param("continue"),
                LabelSelector.parse(request.param("labelSelector")), FieldSelector.parse(request.param("fieldSelector")),
                request.param("resourceVersion"), request.param("resourceVersionMatch"),
                GoBool.optionalQuery(request.param("sendInitialEvents")),
                GoBool.query(request.param("allowWatchBookmarks"), false));
    }

    private static long limit(String value) {
        if (value == null || value.isEmpty()) {
            return 0;
        }
        try {
            return Math.max(0, Long.parseLong(value));
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("invalid value for limit: " + value);
        }
    }
}

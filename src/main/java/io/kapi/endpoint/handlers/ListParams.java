package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RestRequest;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.labels.LabelSelector;
import io.kapi.registry.FieldSelector;
import io.kapi.registry.ListOptions;

/**
 * Reads list and watch options from query parameters: limit, continue, labelSelector, fieldSelector,
 * resourceVersion, resourceVersionMatch, sendInitialEvents and allowWatchBookmarks.
 */
public final class ListParams {

    private ListParams() {
    }

    public static ListOptions read(RestRequest request) {
        return new ListOptions(limit(request.param("limit")), request.param("continue"),
                LabelSelector.parse(request.param("labelSelector")), FieldSelector.parse(request.param("fieldSelector")),
                request.param("resourceVersion"), request.param("resourceVersionMatch"),
                optionalBool(request, "sendInitialEvents"), bool(request.param("allowWatchBookmarks")));
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

    private static Boolean optionalBool(RestRequest request, String name) {
        String value = request.param(name);
        return value == null ? null : bool(value);
    }

    /** Go's ParseBool, as the query parameter conversion uses it; anything else is false. */
    static boolean bool(String value) {
        return value != null && switch (value) {
            case "1", "t", "T", "true", "TRUE", "True" -> true;
            default -> false;
        };
    }
}

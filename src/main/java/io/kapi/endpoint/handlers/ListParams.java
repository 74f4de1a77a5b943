package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RestRequest;
import io.kapi.machinery.ApiException;
import io.kapi.registry.FieldSelector;
import io.kapi.registry.LabelSelector;
import io.kapi.registry.ListOptions;

/** Reads list options from query parameters: limit, continue, labelSelector, fieldSelector. */
final class ListParams {

    private ListParams() {
    }

    static ListOptions read(RestRequest request) {
        return new ListOptions(limit(request.param("limit")), request.param("continue"),
                LabelSelector.parse(request.param("labelSelector")), FieldSelector.parse(request.param("fieldSelector")));
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

package io.kapi.server;

import io.kapi.endpoint.RestHandler;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import java.util.List;

/** Handlers asked in order; the first that answers non-null wins, null when none does. */
record Delegation(List<RestHandler> handlers) implements RestHandler {

    Delegation {
        handlers = List.copyOf(handlers);
    }

    @Override
    public RestResponse handle(RestRequest request) {
        for (RestHandler handler : handlers) {
            RestResponse response = handler.handle(request);
            if (response != null) {
                return response;
            }
        }
        return null;
    }
}

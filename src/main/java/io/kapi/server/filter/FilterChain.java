package io.kapi.server.filter;

import io.kapi.endpoint.RestHandler;
import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.ApiException;
import java.util.List;

/**
 * The rest of the filters after the current one, then the API handler. Built once per server from
 * one list in request order; each {@link #proceed} call walks one step down it.
 */
public final class FilterChain {

    private final List<Filter> filters;
    private final RestHandler handler;
    private final int next;

    private FilterChain(List<Filter> filters, RestHandler handler, int next) {
        this.filters = filters;
        this.handler = handler;
        this.next = next;
    }

    /** A chain running {@code filters} in order, then {@code handler}. */
    public static FilterChain of(List<Filter> filters, RestHandler handler) {
        return new FilterChain(List.copyOf(filters), handler, 0);
    }

    /**
     * Runs the next filter, or the handler after the last one. A handler answering null (no handler
     * of the delegation chain serves the path) becomes 404 NotFound.
     *
     * @throws IllegalStateException if a filter neither proceeded nor responded (returned null)
     */
    public RestResponse proceed(ServerRequest request) {
        if (next == filters.size()) {
            RestResponse response = handler.handle(request.rest());
            if (response == null) {
                throw ApiException.pathNotFound();
            }
            return response;
        }
        Filter filter = filters.get(next);
        RestResponse response = filter.filter(new FilterChain(filters, handler, next + 1), request);
        if (response == null) {
            throw new IllegalStateException("filter " + filter.getClass().getName()
                    + " neither proceeded nor responded");
        }
        return response;
    }
}

package io.kapi.endpoint;

import io.kapi.request.RequestContext;
import io.kapi.user.UserInfo;
import java.io.InputStream;
import java.util.List;
import java.util.Map;

/**
 * An HTTP request as the endpoint layer sees it, free of the HTTP server's types.
 *
 * @param method upper case, e.g. {@code GET}
 * @param path the decoded path, e.g. {@code /api/v1/namespaces/default/configmaps}
 * @param query decoded query parameters, each with all its values in order
 * @param headers header values by lower-case name
 * @param body the request body, read at most once; empty for requests without one
 * @param context what the filters learnt of the request; null only before the first filter
 */
public record RestRequest(String method, String path, Map<String, List<String>> query,
                          Map<String, List<String>> headers, InputStream body, RequestContext context) {

    /** The first value of query parameter {@code name}, or null. */
    public String param(String name) {
        List<String> values = query.get(name);
        return values == null || values.isEmpty() ? null : values.getFirst();
    }

    /** The first value of header {@code name} (any case), or null. */
    public String header(String name) {
        List<String> values = headers.get(name.toLowerCase(java.util.Locale.ROOT));
        return values == null || values.isEmpty() ? null : values.getFirst();
    }

    /** Every value of header {@code name} (any case), in order; empty when absent. */
    public List<String> headers(String name) {
        List<String> values = headers.get(name.toLowerCase(java.util.Locale.ROOT));
        return values == null ? List.of() : values;
    }

    /** The authenticated user, or null before authentication. */
    public UserInfo user() {
        return context == null ? null : context.user();
    }

    /** The context; the filter chain always sets it before the API handlers run. */
    public RequestContext requireContext() {
        if (context == null) {
            throw new IllegalStateException("request " + method + " " + path + " did not pass the filter chain");
        }
        return context;
    }

    public RestRequest withContext(RequestContext newContext) {
        return new RestRequest(method, path, query, headers, body, newContext);
    }

    public RestRequest withBody(InputStream newBody) {
        return new RestRequest(method, path, query, headers, newBody, context);
    }
}

package io.kapi.endpoint;

import io.kapi.authn.UserInfo;
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
 * @param user the authenticated user
 */
public record RestRequest(String method, String path, Map<String, List<String>> query,
                          Map<String, List<String>> headers, InputStream body, UserInfo user) {

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
}

package io.kapi.aggregator;

import io.kapi.user.UserInfo;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Who a proxied request is from, told to the aggregated API server as kube's auth-proxy round tripper
 * tells it: {@code X-Remote-User}, {@code X-Remote-Uid} (when the user has one), an {@code X-Remote-Group}
 * per group and an {@code X-Remote-Extra-<key>} per extra value, the key escaped as kube escapes it. The
 * backend trusts them because the call presents the proxy client certificate.
 */
final class AuthProxyHeaders {

    /** Headers a client may not set itself on a proxied request (lower case; the extras by prefix). */
    static final List<String> OWN = List.of("x-remote-user", "x-remote-uid", "x-remote-group");
    static final String EXTRA_PREFIX = "x-remote-extra-";
    private static final String TOKEN_CHARS = "-!#$&'*+.^_`|~";

    private AuthProxyHeaders() {
    }

    static void add(HttpRequest.Builder request, UserInfo user) {
        request.header("X-Remote-User", user.name());
        if (!user.uid().isEmpty()) {
            request.header("X-Remote-Uid", user.uid());
        }
        user.groups().forEach(g -> request.header("X-Remote-Group", g));
        for (Map.Entry<String, List<String>> extra : user.extra().entrySet()) {
            String name = "X-Remote-Extra-" + escape(extra.getKey());
            extra.getValue().forEach(v -> request.header(name, v));
        }
    }

    /** Percent-encodes the bytes of {@code key} that may not stand in a header name (and {@code %} itself). */
    static String escape(String key) {
        StringBuilder out = new StringBuilder();
        for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c < 0x80 && (Character.isLetterOrDigit(c) || TOKEN_CHARS.indexOf(c) >= 0)) {
                out.append(c);
            } else {
                out.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return out.toString();
    }
}

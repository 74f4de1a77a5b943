package io.kapi.server;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Response header names in lower case, as HTTP/2 sends every name. Given a mixed-case name it does not
 * know ({@code Audit-Id}, {@code X-Kubernetes-PF-FlowSchema-UID}), Jetty's HPACK encoder lower-cases it again
 * for every response (a char array and a string each time); given the lower-case name it has nothing to do.
 * The names are the server's own, so few: the first {@value #LIMIT} are kept, any others (an aggregated
 * server's, say) lower-cased each time rather than kept.
 */
final class LowerCaseNames {

    static final int LIMIT = 128;

    private final Map<String, String> known = new ConcurrentHashMap<>();

    String of(String name) {
        String lower = known.get(name);
        if (lower == null) {
            lower = name.toLowerCase(Locale.ROOT);
            if (known.size() < LIMIT) {
                known.putIfAbsent(name, lower);
            }
        }
        return lower;
    }
}

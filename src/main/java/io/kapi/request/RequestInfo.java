package io.kapi.request;

import io.kapi.machinery.GoBool;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What a request asks for, parsed once from method, path and query by the first filter, as
 * kube-apiserver's {@code RequestInfoFactory}: a resource request ({@code /api/v1/...},
 * {@code /apis/{group}/{version}/...}) with its verb, group, version, namespace, resource, name and
 * subresource, or a non-resource request ({@code /healthz}, {@code /apis}) with only the path and
 * the lower-case HTTP method as verb.
 *
 * @param resourceRequest whether the path names a resource
 * @param path the request path
 * @param verb the verb, or null for a resource request with an HTTP method the API does not serve
 * @param apiPrefix {@code api} or {@code apis} for resource requests, else ""
 * @param group "" for the core group ({@code /api})
 * @param version e.g. v1
 * @param namespace "" when the path names none
 * @param resource the plural resource name
 * @param subresource "" when none; {@code proxy/...} keeps the rest of its path
 * @param name "" for collection requests
 */
public record RequestInfo(boolean resourceRequest, String path, Verb verb, String apiPrefix, String group,
                          String version, String namespace, String resource, String subresource, String name) {

    private static final Set<String> NAMESPACE_SUBRESOURCES = Set.of("status", "finalize");

    /** Parses a request; {@code query} holds decoded query parameters (only {@code watch} is read). */
    public static RequestInfo parse(String method, String path, Map<String, List<String>> query) {
        List<String> parts = segments(path);
        RequestInfo nonResource = new RequestInfo(false, path, nonResourceVerb(method), "", "", "", "", "", "", "");
        if (parts.size() < 3 || !(parts.getFirst().equals("api") || parts.getFirst().equals("apis"))) {
            return nonResource;
        }
        String prefix = parts.removeFirst();
        String group = "";
        if (prefix.equals("apis")) {
            if (parts.size() < 3) {
                return nonResource;
            }
            group = parts.removeFirst();
        }
        String version = parts.removeFirst();
        boolean legacyWatch = parts.getFirst().equals("watch");
        if (legacyWatch) {
            parts.removeFirst();
            if (parts.isEmpty()) {
                return nonResource;
            }
        }
        String namespace = "";
        if (parts.getFirst().equals("namespaces") && parts.size() > 1) {
            namespace = parts.get(1);
            if (parts.size() > 2 && !NAMESPACE_SUBRESOURCES.contains(parts.get(2))) {
                parts = parts.subList(2, parts.size());
            }
        }
        String resource = parts.getFirst();
        String name = parts.size() > 1 ? parts.get(1) : "";
        String subresource = parts.size() > 2 ? String.join("/", parts.subList(2, parts.size())) : "";
        Verb verb = legacyWatch ? (method.equals("GET") || method.equals("HEAD") ? Verb.WATCH : null)
                : resourceVerb(method, name, watchParam(query));
        return new RequestInfo(true, path, verb, prefix, group, version, namespace, resource, subresource, name);
    }

    /** The path's segments, runs of slashes counting as one and those at either end ignored; [""] for "/". */
    private static List<String> segments(String path) {
        List<String> parts = new ArrayList<>(8);
        int start = 0;
        int n = path.length();
        while (start < n) {
            while (start < n && path.charAt(start) == '/') {
                start++;
            }
            int end = path.indexOf('/', start);
            end = end < 0 ? n : end;
            if (end > start) {
                parts.add(path.substring(start, end));
            }
            start = end;
        }
        if (parts.isEmpty()) {
            parts.add("");
        }
        return parts;
    }

    private static Verb resourceVerb(String method, String name, boolean watch) {
        return switch (method) {
            case "GET", "HEAD" -> !name.isEmpty() ? Verb.GET : watch ? Verb.WATCH : Verb.LIST;
            case "POST" -> Verb.CREATE;
            case "PUT" -> Verb.UPDATE;
            case "PATCH" -> Verb.PATCH;
            case "DELETE" -> name.isEmpty() ? Verb.DELETECOLLECTION : Verb.DELETE;
            default -> null;
        };
    }

    private static Verb nonResourceVerb(String method) {
        return Verb.of(method.toLowerCase(Locale.ROOT));
    }

    /**
     * Whether {@code watch} asks for a watch, as kube's query parameter conversion reads a boolean:
     * absent, {@code 0} or {@code false} (any case) is false, every other value (even empty) true.
     */
    private static boolean watchParam(Map<String, List<String>> query) {
        List<String> values = query.get("watch");
        return GoBool.query(values == null || values.isEmpty() ? null : values.getFirst(), false);
    }

    /** Whether the request stays open for long (watch, proxy, exec, attach, port-forward, log). */
    public boolean longRunning() {
        if (verb == Verb.WATCH) {
            return true;
        }
        String sub = subresource.contains("/") ? subresource.substring(0, subresource.indexOf('/')) : subresource;
        return switch (sub) {
            case "proxy", "exec", "attach", "portforward", "log" -> true;
            default -> false;
        };
    }
}

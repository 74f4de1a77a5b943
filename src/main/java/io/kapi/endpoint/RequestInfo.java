package io.kapi.endpoint;

import io.kapi.machinery.GoBool;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * What a resource request asks for, parsed from method, path and query as kube-apiserver's
 * {@code RequestInfoFactory} does.
 *
 * @param verb get, list, watch, create, update, patch, delete, deletecollection
 * @param group "" for the core group ({@code /api})
 * @param version e.g. v1
 * @param namespace "" when the path names none
 * @param resource the plural resource name
 * @param name "" for collection requests
 * @param subresource "" when none
 */
public record RequestInfo(String verb, String group, String version, String namespace, String resource,
                          String name, String subresource) {

    private static final Set<String> NAMESPACE_SUBRESOURCES = Set.of("status", "finalize");

    /**
     * Parses a resource request, or returns null for a path that is not one (discovery documents,
     * {@code /version}, health, ...).
     */
    public static RequestInfo parse(String method, String path, String watchParam) {
        List<String> parts = new ArrayList<>(Arrays.asList(path.replaceAll("^/+|/+$", "").split("/+")));
        String group;
        if (parts.size() >= 3 && parts.getFirst().equals("api")) {
            group = "";
            parts = parts.subList(1, parts.size());
        } else if (parts.size() >= 4 && parts.getFirst().equals("apis")) {
            group = parts.get(1);
            parts = parts.subList(2, parts.size());
        } else {
            return null;
        }
        String version = parts.getFirst();
        parts = new ArrayList<>(parts.subList(1, parts.size()));
        boolean legacyWatch = !parts.isEmpty() && parts.getFirst().equals("watch");
        if (legacyWatch) {
            parts.removeFirst();
            if (parts.isEmpty()) {
                return null;
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
        boolean watch = legacyWatch || GoBool.query(watchParam, false);
        return new RequestInfo(verb(method, name, watch), group, version, namespace, resource, name, subresource);
    }

    private static String verb(String method, String name, boolean watch) {
        return switch (method) {
            case "GET", "HEAD" -> watch ? "watch" : name.isEmpty() ? "list" : "get";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> name.isEmpty() ? "deletecollection" : "delete";
            default -> "";
        };
    }
}

package io.kapi.server.filter;

import io.kapi.endpoint.RestRequest;
import java.util.Set;

/**
 * The paths anyone may GET without credentials: exactly what kube-apiserver's anonymous user may read
 * through the {@code system:public-info-viewer} role, {@code /healthz}, {@code /livez}, {@code /readyz},
 * {@code /version} and {@code /version/}. The checks' own sub-paths ({@code /readyz/shutdown},
 * {@code /healthz/etcd}) are not public, as in kube (a query such as {@code ?verbose} is no part of the path).
 */
final class PublicPaths {

    private static final Set<String> PATHS = Set.of("/healthz", "/livez", "/readyz", "/version", "/version/");

    private PublicPaths() {
    }

    static boolean allows(RestRequest request) {
        return (request.method().equals("GET") || request.method().equals("HEAD")) && PATHS.contains(request.path());
    }
}

package io.kapi.server.filter;

import io.kapi.endpoint.RestRequest;

/**
 * The paths anyone may GET without credentials: what kube-apiserver's anonymous user may read through
 * the {@code system:public-info-viewer} role (health and version), plus each health check's own path.
 */
final class PublicPaths {

    private PublicPaths() {
    }

    static boolean allows(RestRequest request) {
        if (!request.method().equals("GET") && !request.method().equals("HEAD")) {
            return false;
        }
        String path = request.path();
        return path.equals("/version") || path.equals("/version/")
                || isUnder(path, "/healthz") || isUnder(path, "/livez") || isUnder(path, "/readyz");
    }

    private static boolean isUnder(String path, String root) {
        return path.equals(root) || path.startsWith(root + "/");
    }
}

package io.kapi.endpoint;

/**
 * Answers one request. Handlers throw {@link io.kapi.machinery.ApiException} for errors; the server
 * turns it into a Status response. A handler that does not serve a path returns null so the next
 * handler of the delegation chain may.
 */
@FunctionalInterface
public interface RestHandler {
    RestResponse handle(RestRequest request);

    /**
     * Whether this handler may serve a resource request (a path under {@code /api/VERSION/} or
     * {@code /apis/GROUP/VERSION/} that names a resource, {@link io.kapi.request.RequestInfo#resourceRequest}).
     * Handlers of fixed non-resource paths only ({@code /version}, {@code /healthz}, discovery, OpenAPI ...)
     * say no, and a {@link DelegationChain} does not ask them about resource requests.
     */
    default boolean servesResources() {
        return true;
    }
}

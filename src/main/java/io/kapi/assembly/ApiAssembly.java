package io.kapi.assembly;

import io.kapi.endpoint.RestHandler;
import io.kapi.health.HealthCheck;
import io.kapi.health.PostStartHook;
import io.kapi.machinery.ApiException;
import java.util.List;

/**
 * The Kubernetes API behind the server's filters: the delegation chain of handlers, the readiness
 * checks of its parts and its post-start hooks. {@link #close()} releases storage and threads.
 */
public record ApiAssembly(RestHandler handler, List<HealthCheck> checks, List<PostStartHook> hooks,
                          AutoCloseable resources) implements AutoCloseable {

    /** Builds the API for {@code config}; the server calls this once at start-up. */
    public static ApiAssembly create(ApiConfig config) {
        RestHandler notFound = request -> {
            throw ApiException.pathNotFound();
        };
        return new ApiAssembly(notFound, List.of(), List.of(), () -> { });
    }

    @Override
    public void close() throws Exception {
        resources.close();
    }
}

package io.kapi.assembly;

import io.kapi.endpoint.openapi.OpenApiHandler;
import io.kapi.health.PostStartHook;

/**
 * Builds the OpenAPI documents after the server listens, so the first {@code kubectl explain} or
 * validating {@code kubectl create} does not wait for them, and readiness waits until they exist.
 */
record OpenApiWarmUp(OpenApiHandler openApi) implements PostStartHook {

    @Override
    public String name() {
        return "apiservice-openapiv3-controller";
    }

    @Override
    public void run() {
        openApi.prepare();
    }
}

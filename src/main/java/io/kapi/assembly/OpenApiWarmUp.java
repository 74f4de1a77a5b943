package io.kapi.assembly;

import io.kapi.endpoint.openapi.OpenApiHandler;
import io.kapi.health.PostStartHook;

/**
 * Builds the OpenAPI documents in the background once the server listens, so that the first
 * {@code kubectl explain} or {@code kubectl apply} finds them ready. Readiness does not wait for
 * them (as kube-apiserver's {@code apiservice-openapiv3-controller} hook does not wait for the
 * documents it aggregates): they take about a second of CPU on a cold JVM, more than the rest of a
 * restart. A request that comes first builds them itself, or waits for the build under way.
 */
record OpenApiWarmUp(OpenApiHandler openApi) implements PostStartHook {

    @Override
    public String name() {
        return "apiservice-openapiv3-controller";
    }

    @Override
    public void run() {
        Thread builder = Thread.ofPlatform().name("kapi-openapi-warm-up").daemon().unstarted(openApi::prepare);
        builder.setPriority(Thread.MIN_PRIORITY);
        builder.start();
    }
}

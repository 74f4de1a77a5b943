package io.kapi.assembly;

import io.kapi.endpoint.openapi.OpenApiHandler;
import io.kapi.health.PostStartHook;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Builds OpenAPI documents in the background a little after the server's own start-up work is
 * done (the bootstrap objects written and the caches started: {@code after}), so that the first
 * {@code kubectl explain} or {@code kubectl apply} finds them ready: one warm-up for the v3 documents
 * ({@code apiservice-openapiv3-controller}), one for the v2 document with the aggregated servers'
 * ({@code apiservice-openapi-controller}). Readiness does not wait for them (as kube-apiserver's OpenAPI
 * aggregation hooks do not wait for the documents they aggregate): they take about a second of CPU on a cold
 * JVM, more than the rest of a restart, so building them beside the bootstrap hooks only delays readiness on
 * a machine with few cores (thread priorities do not order threads on Linux). A server closed before the
 * build began (a test's server often lives less than a second) does not build them at all, which would take
 * the CPU of the test's next server. A request that comes first builds them itself, or waits for the build
 * under way.
 *
 * <p>The build also waits for a quiet moment: {@link #QUIET} without a request to the API. A server
 * restarted under load would otherwise spend that second of CPU, and the compilation of code that runs only
 * then, in its first seconds of serving (bench/warmup.sh); a server that never goes quiet builds the documents
 * on their first request, as kube-apiserver builds its OpenAPI documents lazily.
 */
final class OpenApiWarmUp implements PostStartHook, AutoCloseable {

    /** How long the build waits for the start-up work before it goes ahead anyway. */
    private static final Duration AT_MOST = Duration.ofSeconds(30);
    /** How long the API must go without a request before the build begins. */
    static final Duration QUIET = Duration.ofMillis(250);

    private final String name;
    private final Runnable prepare;
    private final CacheStart after;
    private final Duration delay;
    private final boolean build;
    private final LongSupplier requests;
    private Thread builder;
    private boolean closed;

    /**
     * A warm-up that builds {@code delay} after {@code after} has run, once {@code requests} (a count of the
     * API's requests) has stood still for {@link #QUIET}; with {@code build} false the hook is there (kube's
     * readiness lists it) but the documents are made on their first request only.
     *
     * @param name the hook's name
     * @param prepare builds the documents
     */
    private OpenApiWarmUp(String name, Runnable prepare, CacheStart after, Duration delay, boolean build,
                          LongSupplier requests) {
        this.name = name;
        this.prepare = prepare;
        this.after = after;
        this.delay = delay;
        this.build = build;
        this.requests = requests;
    }

    /** The warm-up of the v3 documents, {@code apiservice-openapiv3-controller}. */
    static OpenApiWarmUp v3(OpenApiHandler openApi, CacheStart after, Duration delay, boolean build,
                            LongSupplier requests) {
        return new OpenApiWarmUp("apiservice-openapiv3-controller", openApi::prepareV3, after, delay, build, requests);
    }

    /** The warm-up of the v2 document (JSON and protobuf), {@code apiservice-openapi-controller}. */
    static OpenApiWarmUp v2(OpenApiHandler openApi, CacheStart after, Duration delay, boolean build,
                            LongSupplier requests) {
        return new OpenApiWarmUp("apiservice-openapi-controller", openApi::prepareV2, after, delay, build, requests);
    }

    @Override
    public String name() {
        return name;
    }

    /** Waits for {@code after} here, on the hook's thread, which a stopping server interrupts. */
    @Override
    public void run() throws InterruptedException {
        if (!build) {
            return;
        }
        after.awaitStarted(AT_MOST);
        synchronized (this) {
            if (!closed) {
                builder = Thread.ofPlatform().name("kapi-openapi-warm-up-" + name).daemon().start(this::build);
            }
        }
    }

    private void build() {
        try {
            Thread.sleep(delay);
            awaitQuiet(requests, QUIET);
        } catch (InterruptedException e) {
            return;
        }
        prepare.run();
    }

    /** Returns once {@code requests} has not moved for {@code quiet}. */
    static void awaitQuiet(LongSupplier requests, Duration quiet) throws InterruptedException {
        long seen = requests.getAsLong();
        while (true) {
            Thread.sleep(quiet);
            long now = requests.getAsLong();
            if (now == seen) {
                return;
            }
            seen = now;
        }
    }

    /** Cancels a build that has not begun yet; one under way finishes (it holds no resources). */
    @Override
    public synchronized void close() {
        closed = true;
        if (builder != null) {
            builder.interrupt();
        }
    }
}

package io.kapi.server.filter;

import io.kapi.endpoint.RestResponse;
import io.kapi.flowcontrol.FlowControl;
import io.kapi.flowcontrol.FlowControl.Admission;
import io.kapi.machinery.ApiException;
import io.kapi.request.RequestContext;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.function.ObjIntConsumer;

/**
 * Flow control in the chain (kube's {@code WithPriorityAndFairness}, or {@code WithMaxInFlightLimit}),
 * after impersonation and before authorization: a request runs once its {@link FlowControl} admits it,
 * and holds its seats until its response is written; a streamed one (a watch) gives them back once it
 * is set up, as kube releases a watch once it is initialised. A rejected request gets kube's plain-text
 * 429 with {@code Retry-After}.
 *
 * <p>Every classified response, rejected or not, carries the uids (never the names) of its FlowSchema
 * and priority level in {@code X-Kubernetes-PF-FlowSchema-UID} and {@code X-Kubernetes-PF-PriorityLevel-UID}.
 *
 * <p>A request may wait in its queue a quarter of the time to its deadline (a quarter of
 * {@code --request-timeout} when it has none, like a watch), at most a minute: kube's request wait limit.
 */
public record FlowControlFilter(FlowControl gate, Duration requestTimeout, ObjIntConsumer<ServerRequest> terminations)
        implements Filter {

    static final String FLOW_SCHEMA_UID = "X-Kubernetes-PF-FlowSchema-UID";
    static final String PRIORITY_LEVEL_UID = "X-Kubernetes-PF-PriorityLevel-UID";
    private static final byte[] TOO_MANY = "Too many requests, please try again later.\n".getBytes(StandardCharsets.UTF_8);
    private static final Duration MAX_WAIT = Duration.ofMinutes(1);

    /** A filter whose refusals are not recorded. */
    public FlowControlFilter(FlowControl gate, Duration requestTimeout) {
        this(gate, requestTimeout, (request, code) -> { });
    }

    @Override
    public RestResponse filter(FilterChain chain, ServerRequest request) {
        RequestContext context = request.context();
        long start = System.nanoTime();
        Admission admission = gate.admit(context, request.rest().query(), waitUntil(context));
        context.excluded().since(start); // kube's SLI latency leaves out the queue wait
        return switch (admission) {
            case Admission.Rejected rejected -> rejected(request, rejected);
            case Admission.Admitted admitted -> run(chain, request, admitted);
        };
    }

    private RestResponse rejected(ServerRequest request, Admission.Rejected rejected) {
        terminations.accept(request, 429);
        return classified(RestResponse.bytes(429, "text/plain; charset=utf-8", TOO_MANY)
                    .withHeader("Retry-After", Integer.toString(rejected.retryAfterSeconds()))
                    .withHeader("X-Content-Type-Options", "nosniff"), rejected.classification());
    }

    private RestResponse run(FilterChain chain, ServerRequest request, Admission.Admitted admitted) {
        RestResponse response;
        try {
            response = chain.proceed(request);
        } catch (ApiException e) {
            admitted.release().run();
            if (admitted.classification() == null) {
                throw e;
            }
            response = StatusResponses.of(e, request.rest().header("Accept"));
            return classified(response, admitted.classification());
        } catch (RuntimeException | Error e) {
            admitted.release().run();
            throw e;
        }
        classified(response, admitted.classification());
        if (response.body() instanceof RestResponse.Encoded encoded) {
            // a large list is encoded while it is written: it keeps its seats until then
            return new RestResponse(response.status(), response.headers(), new RestResponse.Encoded(
                    encoded.contentType(), out -> {
                        try {
                            encoded.writer().writeTo(out);
                        } finally {
                            admitted.release().run();
                        }
                    }));
        }
        admitted.release().run();
        return response;
    }

    private static RestResponse classified(RestResponse response, FlowControl.Classification c) {
        if (c != null) {
            response.withHeader(FLOW_SCHEMA_UID, c.flowSchemaUid()).withHeader(PRIORITY_LEVEL_UID, c.priorityLevelUid());
        }
        return response;
    }

    /** A quarter of what is left of the request's time, at most a minute (in nanoseconds: no BigDecimal per request). */
    private Instant waitUntil(RequestContext context) {
        Instant now = Instant.now();
        long left = context.deadline() == null ? requestTimeout.toNanos()
                : Duration.between(now, context.deadline()).toNanos();
        return now.plusNanos(Math.min(left / 4, MAX_WAIT.toNanos()));
    }
}

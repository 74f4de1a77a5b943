package io.kapi.flowcontrol;

import io.kapi.request.RequestContext;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Decides whether a request may run now, makes it wait its turn, or turns it away: kube-apiserver's API
 * Priority and Fairness ({@link #priorityAndFairness}), or without it the max-in-flight limits
 * ({@link MaxInFlight}). A request the gate admits must be {@linkplain Admission.Admitted#release()
 * released} exactly once when it is done (a streamed response: once it is set up).
 * <pre>{@code
 * switch (gate.admit(context, query, waitUntil)) {
 *     case Admission.Admitted a -> { try { serve(); } finally { a.release(); } }
 *     case Admission.Rejected r -> answer429(r.retryAfterSeconds());
 * }
 * }</pre>
 */
public interface FlowControl {

    /** No limit at all (in-process chains, tests). */
    FlowControl NONE = (context, query, waitUntil) -> new Admission.Admitted(null, () -> { });

    /**
     * Classifies the request and lets it run at once, or blocks (the calling virtual thread) while it waits
     * in its queue, at most until {@code waitUntil}; then admits or rejects it. An interrupt while waiting
     * rejects it.
     */
    Admission admit(RequestContext context, Map<String, List<String>> query, Instant waitUntil);

    /** A request's fate. */
    sealed interface Admission {

        /** @param classification what the request was classified as; null when no flow control classified it */
        record Admitted(Classification classification, Runnable release) implements Admission {
        }

        /**
         * Refused: answer 429 with {@code Retry-After: retryAfterSeconds}.
         *
         * @param classification as for Admitted
         */
        record Rejected(Classification classification, int retryAfterSeconds) implements Admission {
        }
    }

    /**
     * What API Priority and Fairness classified a request as; only the uids go back to the client
     * ({@code X-Kubernetes-PF-FlowSchema-UID}, {@code X-Kubernetes-PF-PriorityLevel-UID}), never the names.
     */
    record Classification(String flowSchema, String flowSchemaUid, String priorityLevel, String priorityLevelUid,
                          String flowDistinguisher) {
    }
}

package io.kapi.flowcontrol;

import io.kapi.request.RequestContext;
import io.kapi.request.Verb;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;

/**
 * kube-apiserver's max-in-flight filter, used with {@code --enable-priority-and-fairness=false}: at most
 * {@code --max-requests-inflight} read-only requests (get, list) and {@code --max-mutating-requests-inflight}
 * others run at once (0: no limit); long-running requests (watch, exec, proxy, logs) are not counted. A
 * request over the limit is rejected at once, {@code Retry-After: 1}, unless its user is in
 * {@code system:masters}: a super-user or the server itself always gets an answer.
 */
public final class MaxInFlight implements FlowControl {

    private static final Admission.Admitted UNLIMITED = new Admission.Admitted(null, () -> { });
    private static final Admission.Rejected REJECTED = new Admission.Rejected(null, 1);

    private final Semaphore readOnly;
    private final Semaphore mutating;

    public MaxInFlight(int maxReadOnly, int maxMutating) {
        this.readOnly = maxReadOnly > 0 ? new Semaphore(maxReadOnly) : null;
        this.mutating = maxMutating > 0 ? new Semaphore(maxMutating) : null;
    }

    @Override
    public Admission admit(RequestContext context, Map<String, List<String>> query, Instant waitUntil) {
        if (context.info().longRunning()) {
            return UNLIMITED;
        }
        Verb verb = context.info().verb();
        Semaphore limit = verb == Verb.GET || verb == Verb.LIST || verb == Verb.WATCH ? readOnly : mutating;
        if (limit == null) {
            return UNLIMITED;
        }
        if (limit.tryAcquire()) {
            return new Admission.Admitted(null, once(limit));
        }
        if (context.user() != null && context.user().groups().contains("system:masters")) {
            return UNLIMITED;
        }
        return REJECTED;
    }

    private static Runnable once(Semaphore limit) {
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        return () -> {
            if (done.compareAndSet(false, true)) {
                limit.release();
            }
        };
    }
}

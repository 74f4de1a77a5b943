package io.kapi.machinery.cel;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The remaining runtime cost budget shared by several evaluations (one policy binding's expressions, or
 * one custom resource's rules): each evaluation takes what it used; once it is spent, evaluations fail
 * with a {@link CelError.Kind#COST} error. Thread-safe.
 */
public final class CelBudget {

    private final AtomicLong remaining;

    public CelBudget(long total) {
        this.remaining = new AtomicLong(total);
    }

    /** A budget that never runs out (only the per-call limit applies). */
    public static CelBudget unlimited() {
        return new CelBudget(Long.MAX_VALUE);
    }

    public long remaining() {
        return remaining.get();
    }

    /** Takes {@code cost}; false when that was more than was left (the budget is spent then). */
    boolean take(long cost) {
        return remaining.addAndGet(-cost) >= 0;
    }
}

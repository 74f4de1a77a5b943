package io.kapi.registry;

/**
 * How a delete proceeds, as a strategy decides it (kube-apiserver's {@code BeforeDelete} and
 * graceful-deletion checks). Finalizers hold any object regardless.
 */
public sealed interface Deletion {

    /** Removed at once (unless finalizers hold it). */
    record Immediate() implements Deletion {
    }

    /**
     * Marked with {@code deletionTimestamp} = now + {@code seconds} and
     * {@code deletionGracePeriodSeconds}; a later delete with grace 0 (the kubelet's) removes it.
     */
    record Graceful(long seconds) implements Deletion {
    }

    /** Marked with {@code deletionTimestamp} only, until the kind's own finalization (namespaces). */
    record Held() implements Deletion {
    }

    Deletion IMMEDIATE = new Immediate();
}

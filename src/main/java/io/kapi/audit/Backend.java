package io.kapi.audit;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * Where audit events go (kube's {@code audit.Backend}): a log file, a webhook, or a wrapper batching,
 * truncating or ignoring the errors of another.
 */
interface Backend {

    /**
     * Stores or queues {@code events}; returns false only when they could not be stored and the
     * request must fail for it (a blocking-strict log backend).
     */
    boolean process(List<ObjectNode> events);

    /** Stops taking events and flushes what is buffered; returns when it is written or given up. */
    void shutdown();

    /** kube's plugin name ({@code log}, {@code webhook}), the label of the error counter. */
    String name();
}

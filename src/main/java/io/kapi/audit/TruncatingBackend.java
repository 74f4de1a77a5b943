package io.kapi.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;

/**
 * kube's truncating backend ({@code --audit-*-truncate-enabled}): an event larger than
 * {@code maxEventSize} bytes loses its request and response objects and gets the annotation
 * {@code audit.k8s.io/truncated: "true"}; one still too large is dropped (an error). Batches are split so
 * that none exceeds {@code maxBatchSize} bytes.
 */
final class TruncatingBackend implements Backend {

    private static final System.Logger LOG = System.getLogger(TruncatingBackend.class.getName());

    private final Backend delegate;
    private final long maxEventSize;
    private final long maxBatchSize;
    private final AuditMetrics metrics;

    TruncatingBackend(Backend delegate, long maxEventSize, long maxBatchSize, AuditMetrics metrics) {
        this.delegate = delegate;
        this.maxEventSize = maxEventSize;
        this.maxBatchSize = maxBatchSize;
        this.metrics = metrics;
    }

    @Override
    public boolean process(List<ObjectNode> events) {
        boolean ok = true;
        List<ObjectNode> batch = new ArrayList<>();
        long batchSize = 0;
        for (ObjectNode e : events) {
            long size = size(e);
            if (size > maxEventSize) {
                e = e.deepCopy();
                e.remove("requestObject");
                e.remove("responseObject");
                e.with("annotations").put("audit.k8s.io/truncated", "true");
                size = size(e);
                if (size > maxEventSize) {
                    metrics.error(delegate.name(), 1);
                    LOG.log(Level.ERROR, "Error in audit plugin ''{0}'' affecting 1 audit events: event is too large",
                            delegate.name());
                    continue;
                }
            }
            if (!batch.isEmpty() && batchSize + size > maxBatchSize) {
                ok &= delegate.process(batch);
                batch = new ArrayList<>();
                batchSize = 0;
            }
            batch.add(e);
            batchSize += size;
        }
        if (!batch.isEmpty()) {
            ok &= delegate.process(batch);
        }
        return ok;
    }

    private static long size(ObjectNode e) {
        try {
            return Json.MAPPER.writeValueAsBytes(e).length;
        } catch (JsonProcessingException ex) {
            return Long.MAX_VALUE;
        }
    }

    @Override
    public void shutdown() {
        delegate.shutdown();
    }

    @Override
    public String name() {
        return delegate.name();
    }
}

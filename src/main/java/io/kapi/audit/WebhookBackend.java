package io.kapi.audit;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.webhook.KubeconfigWebhook;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;

/**
 * kube's webhook backend: each batch POSTed as an audit.k8s.io/v1 {@code EventList} to the kubeconfig's
 * server, retried on failure after {@code initialBackoff}, growing 1.5 times, five tries in all (kube's
 * {@code DefaultRetryBackoffWithInitialDelay}). Events of a batch that never got through are counted
 * as errors of the {@code webhook} plugin.
 */
final class WebhookBackend implements Backend {

    private static final System.Logger LOG = System.getLogger(WebhookBackend.class.getName());
    private static final int TRIES = 5;

    private final KubeconfigWebhook webhook;
    private final Duration initialBackoff;
    private final AuditMetrics metrics;
    private volatile boolean stopping;

    WebhookBackend(KubeconfigWebhook webhook, Duration initialBackoff, AuditMetrics metrics) {
        this.webhook = webhook;
        this.initialBackoff = initialBackoff;
        this.metrics = metrics;
    }

    @Override
    public boolean process(List<ObjectNode> events) {
        ObjectNode list = Json.object();
        list.put("kind", "EventList").put("apiVersion", "audit.k8s.io/v1").putObject("metadata");
        ArrayNode items = list.putArray("items");
        for (ObjectNode e : events) {
            ObjectNode item = e.deepCopy();
            item.remove("kind");
            item.remove("apiVersion");
            items.add(item);
        }
        long backoff = initialBackoff.toMillis();
        for (int attempt = 1; ; attempt++) {
            try {
                webhook.post(list);
                return true;
            } catch (IOException | RuntimeException e) {
                if (attempt == TRIES || stopping) {
                    metrics.error(name(), events.size());
                    LOG.log(Level.ERROR, "Error in audit plugin ''webhook'' affecting {0} audit events: {1}",
                            events.size(), e.getMessage());
                    return false;
                }
                LOG.log(Level.DEBUG, "audit webhook failed, retrying in {0} ms: {1}", backoff, e.getMessage());
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return false;
                }
                backoff = (long) (backoff * 1.5);
            }
        }
    }

    @Override
    public void shutdown() {
        stopping = true;
    }

    @Override
    public String name() {
        return "webhook";
    }
}

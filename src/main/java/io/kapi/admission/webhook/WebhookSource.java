package io.kapi.admission.webhook;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.LiveCompiled;
import io.kapi.admission.LiveObjects;
import io.kapi.machinery.ObjectMeta;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The webhooks of every configuration of one kind, as the informer has them: compiled once per change,
 * ordered as kube orders them (configurations by name, webhooks as listed).
 */
final class WebhookSource {

    private final LiveCompiled<List<Webhook>> compiled;

    WebhookSource(LiveObjects live) {
        this.compiled = new LiveCompiled<>(List.of(live), items -> compile(items.getFirst()));
    }

    List<Webhook> hooks() {
        return compiled.get();
    }

    private static List<Webhook> compile(List<ObjectNode> configs) {
        List<ObjectNode> sorted = new ArrayList<>(configs);
        sorted.sort(Comparator.comparing(o -> ObjectMeta.of(o).name()));
        List<Webhook> hooks = new ArrayList<>();
        for (ObjectNode config : sorted) {
            hooks.addAll(Webhook.of(config, hooks.size()));
        }
        return List.copyOf(hooks);
    }
}

package io.kapi.admission.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.MutatingPlugin;
import io.kapi.admission.Operation;

/**
 * kube-apiserver's default-on {@code TaintNodesByCondition}: a new Node is tainted
 * {@code node.kubernetes.io/not-ready:NoSchedule} (unless it already has that taint) so nothing is scheduled on
 * it before the node lifecycle controller has seen it Ready.
 */
public record TaintNodesByCondition() implements MutatingPlugin {

    static final String NOT_READY = "node.kubernetes.io/not-ready";

    @Override
    public String name() {
        return "TaintNodesByCondition";
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.CREATE;
    }

    @Override
    public void admit(Attributes a) {
        if (!a.isMain("", "nodes") || a.object() == null) {
            return;
        }
        ObjectNode spec = a.object().get("spec") instanceof ObjectNode s ? s : a.object().putObject("spec");
        ArrayNode taints = spec.get("taints") instanceof ArrayNode t ? t : spec.putArray("taints");
        for (JsonNode t : taints) {
            if (NOT_READY.equals(t.path("key").asText()) && "NoSchedule".equals(t.path("effect").asText())) {
                return;
            }
        }
        taints.addObject().put("key", NOT_READY).put("effect", "NoSchedule");
    }
}

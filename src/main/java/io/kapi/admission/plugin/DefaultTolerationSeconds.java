package io.kapi.admission.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.MutatingPlugin;
import io.kapi.admission.Operation;

/**
 * kube-apiserver's default-on {@code DefaultTolerationSeconds}: every pod (on create and update)
 * tolerates the {@code not-ready} and {@code unreachable} NoExecute taints for
 * {@code --default-not-ready-toleration-seconds} and {@code --default-unreachable-toleration-seconds}
 * (300 each), unless it already tolerates the taint (same key or any key, effect NoExecute or any).
 */
public record DefaultTolerationSeconds(int notReadySeconds, int unreachableSeconds) implements MutatingPlugin {

    static final String NOT_READY = "node.kubernetes.io/not-ready";
    static final String UNREACHABLE = "node.kubernetes.io/unreachable";

    @Override
    public String name() {
        return "DefaultTolerationSeconds";
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.CREATE || operation == Operation.UPDATE;
    }

    @Override
    public void admit(Attributes a) {
        if (!a.isMain("", "pods") || a.object() == null) {
            return;
        }
        ObjectNode spec = a.object().get("spec") instanceof ObjectNode s ? s : a.object().putObject("spec");
        boolean notReady = tolerates(spec, NOT_READY);
        boolean unreachable = tolerates(spec, UNREACHABLE);
        if (notReady && unreachable) {
            return;
        }
        ArrayNode tolerations = spec.get("tolerations") instanceof ArrayNode t ? t : spec.putArray("tolerations");
        if (!notReady) {
            add(tolerations, NOT_READY, notReadySeconds);
        }
        if (!unreachable) {
            add(tolerations, UNREACHABLE, unreachableSeconds);
        }
    }

    private static boolean tolerates(ObjectNode spec, String key) {
        for (JsonNode toleration : spec.path("tolerations")) {
            String tolerated = toleration.path("key").asText("");
            String effect = toleration.path("effect").asText("");
            if ((tolerated.isEmpty() || tolerated.equals(key)) && (effect.isEmpty() || effect.equals("NoExecute"))) {
                return true;
            }
        }
        return false;
    }

    private static void add(ArrayNode tolerations, String key, int seconds) {
        tolerations.addObject().put("key", key).put("operator", "Exists").put("effect", "NoExecute")
                .put("tolerationSeconds", seconds);
    }
}

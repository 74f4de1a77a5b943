package io.kapi.apis.defaults;

import static io.kapi.apis.defaults.Fields.items;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What kube-apiserver's default-on {@code DefaultTolerationSeconds} admission plugin adds to every pod
 * (on create and update): tolerations of the {@code not-ready} and {@code unreachable} NoExecute
 * taints for {@code --default-not-ready-toleration-seconds} and
 * {@code --default-unreachable-toleration-seconds} (300 each), unless the pod already tolerates the
 * taint (same key or any key, with effect NoExecute or any effect).
 *
 * @param notReadySeconds the toleration seconds for {@code node.kubernetes.io/not-ready}
 * @param unreachableSeconds the toleration seconds for {@code node.kubernetes.io/unreachable}
 */
record DefaultTolerations(int notReadySeconds, int unreachableSeconds) {

    static final DefaultTolerations DEFAULT = new DefaultTolerations(300, 300);

    static final String NOT_READY = "node.kubernetes.io/not-ready";
    static final String UNREACHABLE = "node.kubernetes.io/unreachable";

    void apply(ObjectNode pod) {
        ObjectNode spec = Fields.ensure(pod, "spec");
        boolean notReady = tolerates(spec, NOT_READY);
        boolean unreachable = tolerates(spec, UNREACHABLE);
        if (notReady && unreachable) {
            return;
        }
        ArrayNode tolerations = spec.get("tolerations") instanceof ArrayNode a ? a : spec.putArray("tolerations");
        if (!notReady) {
            add(tolerations, NOT_READY, notReadySeconds);
        }
        if (!unreachable) {
            add(tolerations, UNREACHABLE, unreachableSeconds);
        }
    }

    private static boolean tolerates(ObjectNode spec, String key) {
        for (ObjectNode toleration : items(spec, "tolerations")) {
            String tolerated = Fields.text(toleration, "key");
            String effect = Fields.text(toleration, "effect");
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

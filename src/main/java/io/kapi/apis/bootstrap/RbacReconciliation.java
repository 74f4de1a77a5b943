package io.kapi.apis.bootstrap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * kube-apiserver's reconciliation of existing bootstrap RBAC objects on start ({@code
 * pkg/registry/rbac/reconciliation}), for objects whose annotation
 * {@code rbac.authorization.kubernetes.io/autoupdate} is not {@code "false"}: missing labels and
 * annotations are added (existing values win), missing aggregation selectors, rules and subjects are
 * added, nothing is removed. Rules of aggregated roles are left to the aggregation controller.
 *
 * <p>Simplification: a rule counts as present only when an identical rule exists; kube-apiserver
 * checks semantic coverage and adds back only the uncovered parts, so after a user narrowed a rule
 * Kapi adds the whole original rule back where kube adds its uncovered pieces.
 */
final class RbacReconciliation {

    private RbacReconciliation() {
    }

    /** Whether the existing object opted out of reconciliation. */
    static boolean protectedFromUpdate(ObjectNode existing) {
        return "false".equals(existing.path("metadata").path("annotations")
                .path(RbacPolicy.AUTOUPDATE_ANNOTATION).asText(null));
    }

    /** The reconciled copy of a (Cluster)Role; equal to {@code existing} when nothing is missing. */
    static ObjectNode role(ObjectNode existing, ObjectNode expected) {
        ObjectNode result = existing.deepCopy();
        if (protectedFromUpdate(existing)) {
            return result;
        }
        mergeMetadata(result, expected);
        if (expected.has("aggregationRule")) {
            ArrayNode selectors = arrayAt(result.withObjectProperty("aggregationRule"), "clusterRoleSelectors");
            addMissing(selectors, expected.path("aggregationRule").path("clusterRoleSelectors"));
            return result;
        }
        addMissing(arrayAt(result, "rules"), expected.path("rules"));
        return result;
    }

    /** The reconciled copy of a (Cluster)RoleBinding with the same roleRef. */
    static ObjectNode binding(ObjectNode existing, ObjectNode expected) {
        ObjectNode result = existing.deepCopy();
        if (protectedFromUpdate(existing)) {
            return result;
        }
        mergeMetadata(result, expected);
        addMissing(arrayAt(result, "subjects"), expected.path("subjects"));
        return result;
    }

    /** A binding's roleRef cannot change: kube-apiserver deletes and re-creates the binding instead. */
    static boolean roleRefDiffers(ObjectNode existing, ObjectNode expected) {
        return !protectedFromUpdate(existing) && !existing.path("roleRef").equals(expected.path("roleRef"));
    }

    private static void mergeMetadata(ObjectNode result, ObjectNode expected) {
        ObjectNode meta = (ObjectNode) result.path("metadata");
        for (String field : new String[] {"labels", "annotations"}) {
            ObjectNode have = meta.withObjectProperty(field);
            for (Map.Entry<String, JsonNode> e : expected.path("metadata").path(field).properties()) {
                if (!have.has(e.getKey())) {
                    have.set(e.getKey(), e.getValue());
                }
            }
        }
    }

    private static ArrayNode arrayAt(ObjectNode parent, String field) {
        JsonNode node = parent.get(field);
        return node instanceof ArrayNode array ? array : parent.putArray(field);
    }

    private static void addMissing(ArrayNode have, JsonNode wanted) {
        for (JsonNode w : wanted) {
            boolean present = false;
            for (JsonNode h : have) {
                present |= h.equals(w);
            }
            if (!present) {
                have.add(w.deepCopy());
            }
        }
    }
}

package io.kapi.apis.bootstrap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.labels.LabelSelector;
import io.kapi.registry.ListOptions;
import io.kapi.client.ResourceClient;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The cluster role aggregation controller (kube-controller-manager's
 * {@code clusterrole-aggregation-controller}), run in-process for standalone use: the rules of a
 * ClusterRole with an {@code aggregationRule} become the union of the rules of every other
 * ClusterRole its selectors match, selector by selector, roles by name, duplicates dropped — the
 * same order as kube's controller, so both write identical rules when they run side by side.
 */
final class ClusterRoleAggregation {

    private static final System.Logger LOG = System.getLogger(ClusterRoleAggregation.class.getName());
    /** Aggregates can feed aggregates (edit into admin): a few passes reach the fixed point. */
    private static final int MAX_PASSES = 5;

    private final ResourceClient clusterRoles;

    ClusterRoleAggregation(ResourceClient clusterRoles) {
        this.clusterRoles = clusterRoles;
    }

    /** Brings every aggregated role up to date; returns how many updates were written. */
    int reconcileAll() {
        int written = 0;
        for (int pass = 0; pass < MAX_PASSES; pass++) {
            int changed = reconcileOnce();
            written += changed;
            if (changed == 0) {
                break;
            }
        }
        return written;
    }

    private int reconcileOnce() {
        List<ObjectNode> all = new ArrayList<>(clusterRoles.list(""));
        all.sort(Comparator.comparing(r -> ObjectMeta.of(r).name()));
        int changed = 0;
        for (ObjectNode role : all) {
            if (!role.path("aggregationRule").isObject()) {
                continue;
            }
            ArrayNode rules;
            try {
                rules = aggregate(role, all);
            } catch (IllegalArgumentException e) {
                LOG.log(Level.WARNING, "cannot aggregate cluster role {0}: {1}", ObjectMeta.of(role).name(), e.getMessage());
                continue;
            }
            if (rules.equals(role.path("rules")) || (rules.isEmpty() && !role.path("rules").isArray())) {
                continue;
            }
            String name = ObjectMeta.of(role).name();
            try {
                if (Stores.update(clusterRoles, "", name, current -> withRules(current, rules))) {
                    changed++;
                }
            } catch (ApiException e) {
                LOG.log(Level.WARNING, "cannot aggregate cluster role {0}: {1}", name, e.getMessage());
            }
        }
        return changed;
    }

    private static ObjectNode withRules(ObjectNode role, ArrayNode rules) {
        role.set("rules", rules.deepCopy());
        return role;
    }

    static ArrayNode aggregate(ObjectNode role, List<ObjectNode> sortedRoles) {
        String self = ObjectMeta.of(role).name();
        ArrayNode rules = Json.MAPPER.createArrayNode();
        Set<JsonNode> seen = new HashSet<>();
        for (JsonNode selector : role.path("aggregationRule").path("clusterRoleSelectors")) {
            LabelSelector matcher = LabelSelector.fromObject(selector);
            for (ObjectNode other : sortedRoles) {
                ObjectMeta meta = ObjectMeta.of(other);
                if (meta.name().equals(self) || !matcher.matches(meta.labels())) {
                    continue;
                }
                for (JsonNode rule : other.path("rules")) {
                    if (seen.add(rule)) {
                        rules.add(rule.deepCopy());
                    }
                }
            }
        }
        return rules;
    }
}

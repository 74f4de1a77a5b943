package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.validation.Identifiers;
import io.kapi.registry.KindValidator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Namespaces, Nodes, Events, Leases and PriorityClasses. */
public final class Cluster {

    private static final Set<String> STANDARD_FINALIZERS = Set.of("kubernetes", "orphan", "foregroundDeletion");
    private static final List<String> TAINT_EFFECTS = List.of("NoSchedule", "PreferNoSchedule", "NoExecute");
    private static final long HIGHEST_USER_PRIORITY = 1_000_000_000L;
    private static final Map<String, Long> SYSTEM_PRIORITIES = Map.of(
            "system-node-critical", 2_000_001_000L, "system-cluster-critical", 2_000_000_000L);
    private static final List<String> PREEMPTION = List.of("PreemptLowerPriority", "Never");

    private Cluster() {
    }

    public static final KindValidator NAMESPACE = Rules.of(Cluster::namespace);
    public static final KindValidator NODE = Rules.of(Cluster::node, Cluster::nodeUpdate);
    public static final KindValidator EVENT = Rules.of(Cluster::event);
    public static final KindValidator LEASE = Rules.of(Cluster::lease);
    public static final KindValidator PRIORITY_CLASS = new Rules(Cluster::priorityClass, Cluster::priorityClassUpdate);

    private static void namespace(ObjectNode ns, Errs e) {
        for (JsonNode f : GoValues.items(GoValues.at(ns, "spec", "finalizers"))) {
            String name = f.asText();
            e.each("spec.finalizers", name, Identifiers.qualifiedName(name));
            if (!name.contains("/") && !STANDARD_FINALIZERS.contains(name)) {
                e.invalidString("spec.finalizers", name,
                        "name is neither a standard finalizer name nor is it fully qualified");
            }
        }
    }

    private static void node(ObjectNode node, Errs e) {
        List<JsonNode> taints = GoValues.items(GoValues.at(node, "spec", "taints"));
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < taints.size(); i++) {
            JsonNode t = taints.get(i);
            // kube reports node taints under metadata (its field path starts from ObjectMeta)
            String p = "metadata.taints[" + i + "]";
            String key = GoValues.text(t, "key");
            e.each(p + ".key", key, Identifiers.qualifiedName(key));
            String value = GoValues.text(t, "value");
            List<String> msgs = Identifiers.labelValue(value);
            if (!msgs.isEmpty()) {
                e.invalidString(p + ".value", value, String.join(";", msgs));
            }
            String effect = GoValues.text(t, "effect");
            if (effect.isEmpty()) {
                e.required(p + ".effect", "");
            } else if (!TAINT_EFFECTS.contains(effect)) {
                e.notSupported(p + ".effect", GoStrings.quote(effect), TAINT_EFFECTS);
            }
            if (!seen.add(effect + "/" + key)) {
                e.add(new io.kapi.machinery.FieldError(io.kapi.machinery.FieldError.Type.DUPLICATE, p,
                        "core.Taint{Key:" + GoStrings.quote(key) + ", Value:" + GoStrings.quote(value) + ", Effect:" + GoStrings.quote(effect)
                                + ", TimeAdded:<nil>}", "taints must be unique by key and effect pair"));
            }
        }
        List<JsonNode> cidrs = GoValues.items(GoValues.at(node, "spec", "podCIDRs"));
        for (int i = 0; i < cidrs.size(); i++) {
            Names.cidr("spec.podCIDRs[" + i + "]", cidrs.get(i).asText(), e);
        }
    }

    private static void nodeUpdate(ObjectNode node, ObjectNode old, Errs e) {
        JsonNode cidrs = GoValues.at(node, "spec", "podCIDRs");
        JsonNode oldCidrs = GoValues.at(old, "spec", "podCIDRs");
        if (!oldCidrs.isEmpty() && !GoValues.same(cidrs, oldCidrs)) {
            e.forbidden("spec.podCIDRs", "node updates may not change podCIDR except from \"\" to valid");
        }
        String provider = GoValues.text(GoValues.at(old, "spec"), "providerID");
        if (!provider.isEmpty() && !provider.equals(GoValues.text(GoValues.at(node, "spec"), "providerID"))) {
            e.forbidden("spec.providerID", "node updates may not change providerID except from \"\" to valid");
        }
    }

    /** core/v1 Events without eventTime (the legacy shape): involvedObject.namespace must match. */
    static void event(ObjectNode ev, Errs e) {
        String namespace = GoValues.text(GoValues.at(ev, "metadata"), "namespace");
        String involved = GoValues.text(GoValues.at(ev, "involvedObject"), "namespace");
        boolean legacy = GoValues.text(ev, "eventTime").isEmpty();
        if (legacy) {
            if (involved.isEmpty() ? !namespace.isEmpty() && !namespace.equals("default") : !namespace.equals(involved)) {
                e.invalidString("involvedObject.namespace", involved, "does not match event.namespace");
            }
        } else {
            if (involved.isEmpty() && !namespace.equals("default") && !namespace.equals("kube-system")) {
                e.invalidString("involvedObject.namespace", involved, "does not match event.namespace");
            }
            String controller = GoValues.text(ev, "reportingComponent");
            if (controller.isEmpty()) {
                e.required("source", "");
            }
            e.each("source", controller, Identifiers.qualifiedName(controller));
            if (GoValues.text(ev, "reportingInstance").isEmpty()) {
                e.required("reportingInstance", "");
            }
            if (GoValues.text(ev, "action").isEmpty()) {
                e.required("action", "");
            }
            if (GoValues.text(ev, "reason").isEmpty()) {
                e.required("reason", "");
            }
        }
    }

    private static void lease(ObjectNode lease, Errs e) {
        JsonNode spec = GoValues.at(lease, "spec");
        JsonNode duration = spec.get("leaseDurationSeconds");
        if (duration != null && duration.isNumber() && duration.asLong() <= 0) {
            e.invalid("spec.leaseDurationSeconds", duration.asText(), "must be greater than 0");
        }
        e.nonNegative(spec, "leaseTransitions", "spec.leaseTransitions");
    }

    private static void priorityClass(ObjectNode pc, Errs e) {
        String name = GoValues.text(GoValues.at(pc, "metadata"), "name");
        long value = pc.path("value").asLong(0);
        if (name.startsWith("system-")) {
            Long known = SYSTEM_PRIORITIES.get(name);
            String err = known == null ? name + " is not a known system priority class"
                    : known != value ? "value of " + name + " PriorityClass must be " + known
                    : pc.path("globalDefault").asBoolean(false) ? "globalDefault of " + name + " PriorityClass must be false"
                    : null;
            if (err != null) {
                e.forbidden("metadata.name", "priority class names with 'system-' prefix are reserved for system use "
                        + "only. error: " + err);
            }
        } else if (value > HIGHEST_USER_PRIORITY) {
            e.forbidden("value", "maximum allowed value of a user defined priority is " + HIGHEST_USER_PRIORITY);
        }
        String preemption = GoValues.text(pc, "preemptionPolicy");
        if (GoValues.has(pc, "preemptionPolicy") && !PREEMPTION.contains(preemption)) {
            e.notSupported("preemptionPolicy", GoStrings.quote(preemption), PREEMPTION);
        }
    }

    private static void priorityClassUpdate(ObjectNode pc, ObjectNode old, Errs e) {
        if (pc.path("value").asLong(0) != old.path("value").asLong(0)) {
            e.forbidden("value", "may not be changed in an update.");
        }
        String p = GoValues.text(pc, "preemptionPolicy");
        String before = GoValues.text(old, "preemptionPolicy");
        if (!(p.isEmpty() ? "PreemptLowerPriority" : p).equals(before.isEmpty() ? "PreemptLowerPriority" : before)) {
            e.invalidString("preemptionPolicy", p, Errs.IMMUTABLE);
        }
    }
}

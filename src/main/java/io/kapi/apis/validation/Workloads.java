package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.labels.LabelSelector;
import io.kapi.registry.KindValidator;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The pod controllers of apps/v1 and core/v1: Deployment, ReplicaSet, StatefulSet, DaemonSet and
 * ReplicationController, as kube's {@code pkg/apis/apps/validation} and {@code ValidateReplicationController}.
 */
public final class Workloads {

    static final String NO_MATCH = "`selector` does not match template `labels`";
    private static final Pattern PERCENT = Pattern.compile("[0-9]+%");
    /** kube 1.34's list of the StatefulSet spec fields an update may change. */
    static final String STATEFULSET_UPDATABLE = "updates to statefulset spec for fields other than 'replicas', "
            + "'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' "
            + "and 'minReadySeconds' are forbidden";
    private static final List<String> STATEFULSET_MUTABLE = List.of("replicas", "ordinals", "template",
            "updateStrategy", "revisionHistoryLimit", "persistentVolumeClaimRetentionPolicy", "minReadySeconds");

    private Workloads() {
    }

    public static final KindValidator DEPLOYMENT = Rules.of(Workloads::deployment, Workloads::selectorImmutable);
    public static final KindValidator REPLICA_SET = Rules.of(Workloads::replicaSet, Workloads::selectorImmutable);
    public static final KindValidator DAEMON_SET = Rules.of(Workloads::daemonSet, Workloads::selectorImmutable);
    public static final KindValidator STATEFUL_SET = new Rules(Workloads::statefulSet, Workloads::statefulSetUpdate);
    public static final KindValidator REPLICATION_CONTROLLER = Rules.of(Workloads::replicationController);
    /** core/v1 PodTemplates: kube's {@code ValidatePodTemplate}, the template as a pod's. */
    public static final KindValidator POD_TEMPLATE =
            Rules.of((o, e) -> PodSpecs.template(GoValues.at(o, "template"), "template", e));

    private static void deployment(ObjectNode d, Errs e) {
        JsonNode spec = GoValues.at(d, "spec");
        e.nonNegative(spec, "replicas", "spec.replicas");
        selectorAndTemplate(spec, "deployment", true, e);
        strategy(GoValues.at(spec, "strategy"), "spec.strategy", e);
        e.nonNegative(spec, "minReadySeconds", "spec.minReadySeconds");
        e.nonNegative(spec, "revisionHistoryLimit", "spec.revisionHistoryLimit");
        JsonNode deadline = spec.get("progressDeadlineSeconds");
        if (deadline != null && deadline.isNumber()) {
            e.nonNegative(spec, "progressDeadlineSeconds", "spec.progressDeadlineSeconds");
            if (deadline.asLong() <= GoValues.at(spec, "minReadySeconds").asLong(0)) {
                e.invalid("spec.progressDeadlineSeconds", deadline.asText(), "must be greater than minReadySeconds");
            }
        }
    }

    private static void replicaSet(ObjectNode rs, Errs e) {
        JsonNode spec = GoValues.at(rs, "spec");
        e.nonNegative(spec, "replicas", "spec.replicas");
        e.nonNegative(spec, "minReadySeconds", "spec.minReadySeconds");
        selectorAndTemplate(spec, "deployment", true, e);
    }

    /** ValidateDeploymentSpec/ValidateReplicaSetSpec's selector and ValidatePodTemplateSpecForReplicaSet. */
    private static void selectorAndTemplate(JsonNode spec, String kindWord, boolean required, Errs e) {
        JsonNode selector = spec.get("selector");
        boolean present = selector != null && selector.isObject();
        if (!present) {
            if (required) {
                e.required("spec.selector", "");
            }
        } else {
            Selectors.validate(selector, "spec.selector", e);
            if (Selectors.empty(selector)) {
                e.invalid("spec.selector", Go.labelSelector(selector), "empty selector is invalid for " + kindWord);
            }
        }
        // a missing selector selects nothing, an empty one everything (kube's LabelSelectorAsSelector)
        LabelSelector matcher = Selectors.asSelector(present ? selector : null);
        if (matcher == null) {
            e.invalid("spec.selector", Go.labelSelector(selector), "invalid label selector");
            return;
        }
        JsonNode template = GoValues.at(spec, "template");
        JsonNode labels = GoValues.at(template, "metadata", "labels");
        if (!matcher.matches(labels)) {
            e.invalid("spec.template.metadata.labels", Go.stringMap(labels.isObject() ? labels : null), NO_MATCH);
        }
        PodSpecs.template(template, "spec.template", e);
        restartAlways(template, e);
        if (GoValues.has(GoValues.at(template, "spec"), "activeDeadlineSeconds")) {
            e.forbidden("spec.template.spec.activeDeadlineSeconds", "activeDeadlineSeconds in ReplicaSet is not Supported");
        }
    }

    private static void restartAlways(JsonNode template, Errs e) {
        String policy = GoValues.text(GoValues.at(template, "spec"), "restartPolicy");
        if (!policy.isEmpty() && !policy.equals("Always")) {
            e.notSupported("spec.template.spec.restartPolicy", GoStrings.quote(policy), List.of("Always"));
        }
    }

    private static void strategy(JsonNode strategy, String path, Errs e) {
        String type = GoValues.text(strategy, "type");
        JsonNode rolling = strategy.get("rollingUpdate");
        boolean hasRolling = rolling != null && rolling.isObject();
        switch (type) {
            case "" -> { }
            case "Recreate" -> {
                if (hasRolling) {
                    e.forbidden(path + ".rollingUpdate", "may not be specified when strategy `type` is 'Recreate'");
                }
            }
            case "RollingUpdate" -> {
                if (hasRolling) {
                    rollingUpdate(rolling, path + ".rollingUpdate", e);
                }
            }
            default -> e.notSupported(path, "apps.DeploymentStrategy{Type:" + GoStrings.quote(type) + ", RollingUpdate:"
                    + (hasRolling ? "&apps.RollingUpdateDeployment{...}" : "(*apps.RollingUpdateDeployment)(nil)") + "}",
                    List.of("Recreate", "RollingUpdate"));
        }
    }

    private static void rollingUpdate(JsonNode r, String path, Errs e) {
        JsonNode maxUnavailable = r.get("maxUnavailable");
        JsonNode maxSurge = r.get("maxSurge");
        intOrPercent(maxUnavailable, path + ".maxUnavailable", e);
        intOrPercent(maxSurge, path + ".maxSurge", e);
        if (value(maxUnavailable) == 0 && value(maxSurge) == 0) {
            e.invalid(path + ".maxUnavailable", render(maxUnavailable), "may not be 0 when `maxSurge` is 0");
        }
        if (maxUnavailable != null && maxUnavailable.isTextual() && PERCENT.matcher(maxUnavailable.asText()).matches()
                && value(maxUnavailable) > 100) {
            e.invalid(path + ".maxUnavailable", render(maxUnavailable), "must not be greater than 100%");
        }
    }

    /** ValidatePositiveIntOrPercent. */
    static void intOrPercent(JsonNode v, String path, Errs e) {
        if (v == null || v.isNull()) {
            return;
        }
        if (v.isTextual()) {
            if (!PERCENT.matcher(v.asText()).matches()) {
                e.invalid(path, v.asText(), Go.regexError("a valid percent string must be a numeric string followed "
                        + "by an ending '%'", "[0-9]+%", "1%", "93%"));
            }
        } else if (v.asLong() < 0) {
            e.invalid(path, v.asText(), Errs.NEGATIVE);
        }
    }

    /** An IntOrString as its {@code String()}: the number or the string, unquoted. */
    static String render(JsonNode v) {
        return v == null || v.isNull() ? "0" : v.asText();
    }

    private static long value(JsonNode v) {
        if (v == null || v.isNull()) {
            return 0;
        }
        if (v.isTextual()) {
            String s = v.asText();
            return PERCENT.matcher(s).matches() ? Long.parseLong(s.substring(0, s.length() - 1)) : -1;
        }
        return v.asLong();
    }

    private static void selectorImmutable(ObjectNode o, ObjectNode old, Errs e) {
        JsonNode now = GoValues.at(o, "spec", "selector");
        if (!GoValues.same(now, GoValues.at(old, "spec", "selector"))) {
            e.invalid("spec.selector", Go.labelSelector(now), Errs.IMMUTABLE);
        }
    }

    private static void daemonSet(ObjectNode ds, Errs e) {
        JsonNode spec = GoValues.at(ds, "spec");
        JsonNode selector = spec.get("selector");
        boolean present = selector != null && selector.isObject();
        if (present) {
            Selectors.validate(selector, "spec.selector", e);
        }
        JsonNode template = GoValues.at(spec, "template");
        JsonNode labels = GoValues.at(template, "metadata", "labels");
        LabelSelector matcher = Selectors.asSelector(present ? selector : null);
        if (matcher != null && !matcher.matches(labels)) {
            e.invalid("spec.template.metadata.labels", Go.stringMap(labels.isObject() ? labels : null), NO_MATCH);
        }
        if (present && Selectors.empty(selector)) {
            e.invalid("spec.selector", Go.labelSelector(selector), "empty selector is invalid for daemonset");
        }
        PodSpecs.template(template, "spec.template", e);
        restartAlways(template, e);
        if (GoValues.has(GoValues.at(template, "spec"), "activeDeadlineSeconds")) {
            e.forbidden("spec.template.spec.activeDeadlineSeconds", "activeDeadlineSeconds in DaemonSet is not Supported");
        }
        e.nonNegative(spec, "minReadySeconds", "spec.minReadySeconds");
        e.nonNegative(spec, "templateGeneration", "spec.templateGeneration");
        e.nonNegative(spec, "revisionHistoryLimit", "spec.revisionHistoryLimit");
        String type = GoValues.text(GoValues.at(spec, "updateStrategy"), "type");
        if (!type.isEmpty() && !type.equals("OnDelete") && !type.equals("RollingUpdate")) {
            e.notSupported("spec.updateStrategy", GoStrings.quote(type), List.of("OnDelete", "RollingUpdate"));
        }
        JsonNode rolling = GoValues.at(spec, "updateStrategy", "rollingUpdate");
        if (type.equals("RollingUpdate") && rolling.isObject()) {
            intOrPercent(rolling.get("maxUnavailable"), "spec.updateStrategy.rollingUpdate.maxUnavailable", e);
            intOrPercent(rolling.get("maxSurge"), "spec.updateStrategy.rollingUpdate.maxSurge", e);
        }
    }

    private static void statefulSet(ObjectNode ss, Errs e) {
        JsonNode spec = GoValues.at(ss, "spec");
        String policy = GoValues.text(spec, "podManagementPolicy");
        if (!policy.isEmpty() && !policy.equals("OrderedReady") && !policy.equals("Parallel")) {
            e.invalidString("spec.podManagementPolicy", policy, "must be 'OrderedReady' or 'Parallel'");
        }
        JsonNode strategy = GoValues.at(spec, "updateStrategy");
        String type = GoValues.text(strategy, "type");
        switch (type) {
            case "", "RollingUpdate" -> e.nonNegative(GoValues.at(strategy, "rollingUpdate"), "partition",
                    "spec.updateStrategy.rollingUpdate.partition");
            case "OnDelete" -> {
                if (GoValues.has(strategy, "rollingUpdate")) {
                    e.invalid("spec.updateStrategy.rollingUpdate", "&apps.RollingUpdateStatefulSetStrategy{...}",
                            "only allowed for updateStrategy 'RollingUpdate'");
                }
            }
            default -> e.invalid("spec.updateStrategy", "apps.StatefulSetUpdateStrategy{Type:" + GoStrings.quote(type) + "}",
                    "must be 'RollingUpdate' or 'OnDelete'");
        }
        e.nonNegative(spec, "replicas", "spec.replicas");
        e.nonNegative(spec, "minReadySeconds", "spec.minReadySeconds");
        JsonNode selector = spec.get("selector");
        boolean present = selector != null && selector.isObject();
        if (!present) {
            e.required("spec.selector", "");
        } else {
            Selectors.validate(selector, "spec.selector", e);
            if (Selectors.empty(selector)) {
                e.invalid("spec.selector", Go.labelSelector(selector), "empty selector is invalid for statefulset");
            }
        }
        JsonNode template = GoValues.at(spec, "template");
        JsonNode labels = GoValues.at(template, "metadata", "labels");
        LabelSelector matcher = Selectors.asSelector(present ? selector : null);
        if (matcher != null && !matcher.matches(labels)) {
            e.invalid("spec.template.metadata.labels", Go.stringMap(labels.isObject() ? labels : null), NO_MATCH);
        }
        PodSpecs.template(withClaimVolumes(template, spec.get("volumeClaimTemplates")), "spec.template", e);
        restartAlways(template, e);
        JsonNode deadline = GoValues.at(template, "spec", "activeDeadlineSeconds");
        if (deadline.isNumber()) {
            e.invalid("spec.template.spec.activeDeadlineSeconds", deadline.asText(), "must not be specified");
        }
    }

    /** The template with each volumeClaimTemplate as a PVC volume, so that mounts of claims resolve. */
    private static JsonNode withClaimVolumes(JsonNode template, JsonNode claims) {
        if (!template.isObject() || GoValues.items(claims).isEmpty()) {
            return template;
        }
        ObjectNode copy = ((ObjectNode) template).deepCopy();
        ArrayNode volumes = copy.with("spec").withArray("volumes");
        for (JsonNode claim : GoValues.items(claims)) {
            String name = GoValues.text(GoValues.at(claim, "metadata"), "name");
            ObjectNode v = volumes.addObject().put("name", name);
            v.putObject("persistentVolumeClaim").put("claimName", name);
        }
        return copy;
    }

    private static void statefulSetUpdate(ObjectNode ss, ObjectNode old, Errs e) {
        statefulSet(ss, e);
        JsonNode now = GoValues.at(ss, "spec");
        JsonNode before = GoValues.at(old, "spec");
        ObjectNode a = now.isObject() ? ((ObjectNode) now).deepCopy() : ss.objectNode();
        ObjectNode b = before.isObject() ? ((ObjectNode) before).deepCopy() : ss.objectNode();
        a.remove(STATEFULSET_MUTABLE);
        b.remove(STATEFULSET_MUTABLE);
        if (!GoValues.same(a, b)) {
            e.forbidden("spec", STATEFULSET_UPDATABLE);
        }
    }

    private static void replicationController(ObjectNode rc, Errs e) {
        JsonNode spec = GoValues.at(rc, "spec");
        e.nonNegative(spec, "minReadySeconds", "spec.minReadySeconds");
        JsonNode template = spec.get("template");
        JsonNode labels = GoValues.at(template, "metadata", "labels");
        JsonNode selector = GoValues.has(spec, "selector") ? spec.get("selector") : labels;
        if (selector.isEmpty()) {
            e.required("spec.selector", "");
        }
        e.nonNegative(spec, "replicas", "spec.replicas");
        if (template == null || template.isNull()) {
            e.required("spec.template", "");
            return;
        }
        if (!LabelSelector.fromSet(selector).matches(labels)) {
            e.invalid("spec.template.metadata.labels", Go.stringMap(labels.isObject() ? labels : null), NO_MATCH);
        }
        PodSpecs.template(template, "spec.template", e);
        restartAlways(template, e);
        if (GoValues.has(GoValues.at(template, "spec"), "activeDeadlineSeconds")) {
            e.forbidden("spec.template.spec.activeDeadlineSeconds",
                    "activeDeadlineSeconds in ReplicationController is not Supported");
        }
    }
}

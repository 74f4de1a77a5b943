package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.Json;
import io.kapi.registry.KindValidator;
import java.util.List;

/** Pods: kube's {@code ValidatePodCreate} and {@code ValidatePodUpdate}. */
public final class Pods {

    /** kube 1.34's {@code updatablePodSpecFields}, joined with "," as the message does. */
    static final String UPDATABLE = String.join(",", List.of(
            "`spec.containers[*].image`",
            "`spec.initContainers[*].image`",
            "`spec.activeDeadlineSeconds`",
            "`spec.tolerations` (only additions to existing tolerations)",
            "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"));

    private static final String MAX_INT32_ZERO_RANGE = "must be between 0 and 2147483647, inclusive";

    private Pods() {
    }

    public static final KindValidator RULES = new Rules(Pods::create, Pods::update);

    /** A new pod's status, as kube's pod strategy PrepareForCreate leaves it: {@code Pending} with its QoS class. */
    public static ObjectNode initialStatus(ObjectNode pod) {
        return Json.NODES.objectNode().put("phase", "Pending")
                .put("qosClass", PodQos.compute(GoValues.at(pod, "spec")));
    }

    static void create(ObjectNode pod, Errs e) {
        metadataAndSpec(pod, e);
        JsonNode spec = GoValues.at(pod, "spec");
        if (!GoValues.at(spec, "ephemeralContainers").isEmpty()) {
            e.forbidden("spec.ephemeralContainers", "cannot be set on create");
        }
        if (!GoValues.text(spec, "nodeName").isEmpty() && !GoValues.at(spec, "schedulingGates").isEmpty()) {
            e.forbidden("spec.nodeName", "cannot be set until all schedulingGates have been cleared");
        }
    }

    private static void metadataAndSpec(ObjectNode pod, Errs e) {
        JsonNode spec = GoValues.at(pod, "spec");
        PodSpecs.spec(spec, "spec", true, e);
        if (GoValues.text(spec, "serviceAccountName").isEmpty()) {
            List<JsonNode> vols = GoValues.items(spec.get("volumes"));
            for (int i = 0; i < vols.size(); i++) {
                List<JsonNode> sources = GoValues.items(GoValues.at(vols.get(i), "projected", "sources"));
                for (int j = 0; j < sources.size(); j++) {
                    if (GoValues.has(sources.get(j), "serviceAccountToken")) {
                        e.forbidden("spec.volumes[" + i + "].projected.sources[" + j + "].serviceAccountToken",
                                "must not be specified when serviceAccountName is not set");
                    }
                }
            }
        }
    }

    static void update(ObjectNode pod, ObjectNode old, Errs e) {
        metadataAndSpec(pod, e);
        JsonNode spec = GoValues.at(pod, "spec");
        JsonNode oldSpec = GoValues.at(old, "spec");
        for (String list : List.of("containers", "initContainers")) {
            List<JsonNode> now = GoValues.items(spec.get(list));
            List<JsonNode> before = GoValues.items(oldSpec.get(list));
            if (now.size() != before.size()) {
                e.forbidden("spec." + list, "pod updates may not add or remove containers");
                return;
            }
            for (int i = 0; i < now.size(); i++) {
                String image = GoValues.text(now.get(i), "image");
                if (image.isEmpty()) {
                    e.required("spec." + list + "[" + i + "].image", "");
                }
                if (!image.equals(image.strip())) {
                    e.invalidString("spec." + list + "[" + i + "].image", image,
                            "must not have leading or trailing whitespace");
                }
            }
        }
        JsonNode deadline = spec.get("activeDeadlineSeconds");
        JsonNode oldDeadline = oldSpec.get("activeDeadlineSeconds");
        boolean hasDeadline = deadline != null && deadline.isNumber();
        boolean hadDeadline = oldDeadline != null && oldDeadline.isNumber();
        if (hasDeadline) {
            long v = deadline.asLong();
            if (v < 0 || v > Integer.MAX_VALUE) {
                e.invalid("spec.activeDeadlineSeconds", deadline.asText(), MAX_INT32_ZERO_RANGE);
                return;
            }
            if (hadDeadline && oldDeadline.asLong() < v) {
                e.invalid("spec.activeDeadlineSeconds", deadline.asText(), "must be less than or equal to previous value");
                return;
            }
        } else if (hadDeadline) {
            e.invalid("spec.activeDeadlineSeconds", "null", "must not update from a positive integer to nil value");
        }
        Tolerations.onlyAdded(spec.get("tolerations"), oldSpec.get("tolerations"), "spec.tolerations", e);
        if (GoValues.same(spec, oldSpec)) {
            return;
        }
        ObjectNode munged = spec.isObject() ? ((ObjectNode) spec).deepCopy() : pod.objectNode();
        for (String list : List.of("containers", "initContainers")) {
            if (munged.get(list) instanceof ArrayNode cs) {
                List<JsonNode> before = GoValues.items(oldSpec.get(list));
                for (int i = 0; i < cs.size(); i++) {
                    if (cs.get(i) instanceof ObjectNode c) {
                        c.set("image", before.get(i).get("image"));
                    }
                }
            }
        }
        copy(munged, oldSpec, "activeDeadlineSeconds");
        copy(munged, oldSpec, "schedulingGates");
        copy(munged, oldSpec, "tolerations");
        JsonNode grace = oldSpec.get("terminationGracePeriodSeconds");
        if (grace != null && grace.asLong() < 0 && munged.path("terminationGracePeriodSeconds").asLong() == 1) {
            munged.set("terminationGracePeriodSeconds", grace);
        }
        if (!GoValues.same(munged, oldSpec)) {
            e.forbidden("spec", "pod updates may not change fields other than " + UPDATABLE + "\n"
                    + SpecDiff.diff("core.PodSpec", oldSpec, munged));
        }
    }

    private static void copy(ObjectNode target, JsonNode from, String field) {
        JsonNode v = from.get(field);
        if (v == null) {
            target.remove(field);
        } else {
            target.set(field, v);
        }
    }
}

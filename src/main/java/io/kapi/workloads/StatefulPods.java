package io.kapi.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Pods and claims of a StatefulSet as kube's {@code stateful_set_utils.go} makes them: Pod
 * {@code <set>-<ordinal>} with hostname its name and subdomain the set's {@code serviceName}, labelled
 * {@code statefulset.kubernetes.io/pod-name} and {@code apps.kubernetes.io/pod-index}, one volume per
 * claim template naming claim {@code <template>-<set>-<ordinal>}.
 */
final class StatefulPods {

    static final String POD_NAME_LABEL = "statefulset.kubernetes.io/pod-name";
    static final String POD_INDEX_LABEL = "apps.kubernetes.io/pod-index";
    private static final Pattern ORDINAL = Pattern.compile("(.*)-([0-9]+)$");

    private StatefulPods() {
    }

    /** {@code getParentNameAndOrdinal}: the ordinal of a Pod named {@code <set>-<n>}, or -1. */
    static int ordinal(JsonNode pod, String set) {
        Matcher m = ORDINAL.matcher(pod.path("metadata").path("name").asText(""));
        if (!m.matches() || !m.group(1).equals(set) || m.group(2).length() > 9) {
            return -1;
        }
        return Integer.parseInt(m.group(2));
    }

    static int start(JsonNode set) {
        return set.path("spec").path("ordinals").path("start").asInt(0);
    }

    static String revision(JsonNode pod) {
        return pod.path("metadata").path("labels").path(ControllerHistory.POD_LABEL).asText("");
    }

    /** {@code isCreated}: the Pod has a phase (the server gives every new Pod Pending). */
    static boolean created(JsonNode pod) {
        return !pod.path("status").path("phase").asText("").isEmpty();
    }

    /** {@code isRunningAndReady}. */
    static boolean runningAndReady(JsonNode pod) {
        return pod.path("status").path("phase").asText("").equals("Running") && Pods.ready(pod);
    }

    static boolean failedOrSucceeded(JsonNode pod) {
        String phase = pod.path("status").path("phase").asText("");
        return phase.equals("Failed") || phase.equals("Succeeded");
    }

    /** {@code ApplyRevision}: the set with its template as {@code revision} has it. */
    static ObjectNode applyRevision(ObjectNode set, JsonNode revision) {
        ObjectNode copy = set.deepCopy();
        ObjectNode template = revision.path("data").path("spec").path("template").deepCopy();
        template.remove("$patch");
        copy.with("spec").set("template", template);
        return copy;
    }

    /** {@code newStatefulSetPod} and {@code setPodRevision}. */
    static ObjectNode newPod(ObjectNode set, int ordinal, String revision) {
        ObjectNode pod = Pods.fromTemplate(set.path("spec").path("template"), set);
        ObjectNode meta = pod.with("metadata");
        meta.remove("generateName");
        String name = ObjectMeta.of(set).name() + "-" + ordinal;
        meta.put("name", name);
        ObjectNode labels = meta.with("labels");
        labels.put(POD_NAME_LABEL, name);
        labels.put(POD_INDEX_LABEL, Integer.toString(ordinal));
        labels.put(ControllerHistory.POD_LABEL, revision);
        ObjectNode spec = pod.with("spec");
        spec.put("hostname", name);
        String service = set.path("spec").path("serviceName").asText("");
        if (!service.isEmpty()) {
            spec.put("subdomain", service);
        }
        storage(set, ordinal, spec);
        return pod;
    }

    /** {@code updateStorage}: a volume per claim template first, then the template's other volumes. */
    private static void storage(ObjectNode set, int ordinal, ObjectNode spec) {
        List<ObjectNode> claims = claims(set, ordinal);
        if (claims.isEmpty()) {
            return;
        }
        ArrayNode volumes = Json.NODES.arrayNode();
        Set<String> templates = new HashSet<>();
        for (JsonNode tpl : set.path("spec").path("volumeClaimTemplates")) {
            String tplName = tpl.path("metadata").path("name").asText();
            templates.add(tplName);
            ObjectNode v = volumes.addObject().put("name", tplName);
            v.putObject("persistentVolumeClaim").put("claimName", claimName(tplName, set, ordinal));
        }
        for (JsonNode v : spec.path("volumes")) {
            if (!templates.contains(v.path("name").asText())) {
                volumes.add(v.deepCopy());
            }
        }
        spec.set("volumes", volumes);
    }

    static String claimName(String template, JsonNode set, int ordinal) {
        return template + "-" + set.path("metadata").path("name").asText() + "-" + ordinal;
    }

    /**
     * {@code getPersistentVolumeClaims}: each claim template named for the Pod, in the set's namespace, its
     * labels with the selector's {@code matchLabels} added.
     */
    static List<ObjectNode> claims(ObjectNode set, int ordinal) {
        List<ObjectNode> claims = new ArrayList<>();
        for (JsonNode tpl : set.path("spec").path("volumeClaimTemplates")) {
            ObjectNode claim = Json.object();
            claim.put("apiVersion", "v1");
            claim.put("kind", "PersistentVolumeClaim");
            ObjectNode meta = claim.putObject("metadata");
            meta.put("name", claimName(tpl.path("metadata").path("name").asText(), set, ordinal));
            meta.put("namespace", ObjectMeta.of(set).namespace());
            ObjectNode labels = meta.putObject("labels");
            tpl.path("metadata").path("labels").properties().forEach(e -> labels.set(e.getKey(), e.getValue()));
            set.path("spec").path("selector").path("matchLabels").properties()
                    .forEach(e -> labels.set(e.getKey(), e.getValue()));
            if (tpl.path("metadata").path("annotations").isObject()) {
                meta.set("annotations", tpl.path("metadata").path("annotations").deepCopy());
            }
            claim.set("spec", tpl.path("spec").deepCopy());
            claims.add(claim);
        }
        return claims;
    }

    /**
     * {@code updateClaimOwnerRefForSetAndPod}: the owner references {@code claim} should have under the set's
     * {@code persistentVolumeClaimRetentionPolicy}, each a controller reference: the set's when
     * {@code whenDeleted} is Delete (while the Pod is in range, or always when {@code whenScaled} is Retain),
     * the Pod's when {@code whenScaled} is Delete and the Pod is scaled away; neither when both are Retain, nor
     * when another object controls the claim. Other owners are kept.
     */
    static ArrayNode retentionRefs(JsonNode claim, ObjectNode set, JsonNode pod, boolean inRange) {
        JsonNode policy = set.path("spec").path("persistentVolumeClaimRetentionPolicy");
        boolean deleteWithSet = policy.path("whenDeleted").asText("Retain").equals("Delete");
        boolean deleteWhenScaled = policy.path("whenScaled").asText("Retain").equals("Delete");
        String setUid = ObjectMeta.of(set).uid();
        String podUid = pod.path("metadata").path("uid").asText();
        ArrayNode refs = Json.NODES.arrayNode();
        boolean otherController = false;
        for (JsonNode ref : claim.path("metadata").path("ownerReferences")) {
            String uid = ref.path("uid").asText();
            if (!uid.equals(setUid) && !uid.equals(podUid)) {
                refs.add(ref.deepCopy());
                otherController |= ref.path("controller").asBoolean(false);
            }
        }
        if (otherController) {
            return refs; // hasUnexpectedController: ours scrubbed, none added
        }
        if (deleteWhenScaled && !inRange) {
            ObjectNode typedPod = ((ObjectNode) pod).deepCopy().put("apiVersion", "v1").put("kind", "Pod");
            refs.add(Pods.controllerRef(typedPod));
        } else if (deleteWithSet) {
            refs.add(Pods.controllerRef(set));
        }
        return refs;
    }
}

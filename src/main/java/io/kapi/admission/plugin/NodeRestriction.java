package io.kapi.admission.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.MutatingPlugin;
import io.kapi.admission.ObjectLookup;
import io.kapi.admission.Operation;
import io.kapi.authz.node.NodeIdentity;
import io.kapi.authz.node.PodReferences;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * kube-apiserver's {@code NodeRestriction} (off by default): what the Node authorizer lets every kubelet
 * do, narrowed to its own objects. A node ({@code system:node:<name>} in {@code system:nodes}) may
 * modify only its own Node, without touching its taints, {@code configSource} or labels outside the
 * kubelet's set (never {@code node-restriction.kubernetes.io/}); create only mirror pods bound to
 * and owned by itself that refer to no other object, delete and update the status of only pods
 * bound to it; update only a PVC's status capacity and conditions; and touch only its own lease,
 * CSINode and resource slices. Every refusal is a 403 worded as kube's. Other users pass untouched.
 */
public final class NodeRestriction implements MutatingPlugin {

    private static final GroupVersionResource NODES = new GroupVersionResource("", "v1", "nodes");
    private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
    private static final String RESTRICTED_LABELS = "node-restriction.kubernetes.io";
    /** kubelet's own labels ({@code kubeletapis.IsKubeletLabel}). */
    private static final Set<String> KUBELET_LABELS = Set.of("kubernetes.io/hostname", "kubernetes.io/arch",
            "kubernetes.io/os", "beta.kubernetes.io/arch", "beta.kubernetes.io/os", "beta.kubernetes.io/instance-type",
            "node.kubernetes.io/instance-type", "failure-domain.beta.kubernetes.io/region",
            "failure-domain.beta.kubernetes.io/zone", "topology.kubernetes.io/region", "topology.kubernetes.io/zone");
    private static final List<String> KUBELET_LABEL_NAMESPACES = List.of("kubelet.kubernetes.io",
            "node.kubernetes.io");

    private final ObjectLookup lookup;

    public NodeRestriction(ObjectLookup lookup) {
        this.lookup = lookup;
    }

    @Override
    public String name() {
        return "NodeRestriction";
    }

    @Override
    public boolean handles(Operation operation) {
        return operation != Operation.CONNECT;
    }

    @Override
    public void admit(Attributes a) {
        String node = NodeIdentity.nodeName(a.user());
        if (node == null) {
            return;
        }
        if (node.isEmpty()) {
            throw forbidden(a, "could not determine node from user \"%s\"".formatted(a.user().name()));
        }
        String subresource = a.target().subresource();
        switch (a.target().resource().group() + "/" + a.target().resource().resource()) {
            case "/pods" -> {
                switch (subresource) {
                    case "" -> pod(node, a);
                    case "status" -> podStatus(node, a);
                    case "eviction" -> podEviction(node, a);
                    default -> throw forbidden(a, ("unexpected pod subresource \"%s\", only 'status' and "
                            + "'eviction' are allowed").formatted(subresource));
                }
            }
            case "/nodes" -> node(node, a);
            case "/persistentvolumeclaims" -> {
                if (!subresource.equals("status")) {
                    throw forbidden(a, "may only update PVC status");
                }
                claimStatus(node, a);
            }
            case "coordination.k8s.io/leases" -> lease(node, a);
            case "storage.k8s.io/csinodes" -> csiNode(node, a);
            case "resource.k8s.io/resourceslices" -> resourceSlice(node, a);
            default -> {
            }
        }
    }

    /**
     * kube's {@code admission.NewForbidden}: named after the object written (its name or generateName),
     * else "Unknown".
     */
    private static ApiException forbidden(Attributes a, String why) {
        String name = "Unknown";
        if (a.object() != null) {
            JsonNode meta = a.object().path("metadata");
            String n = meta.path("name").asText("");
            name = !n.isEmpty() ? n : !meta.path("generateName").asText("").isEmpty()
                    ? meta.path("generateName").asText() : name;
        }
        return ApiException.forbidden(a.target().resource(), name, why, List.of());
    }

    private static String operation(Operation op) {
        return op.name();
    }

    private void pod(String node, Attributes a) {
        switch (a.operation()) {
            case CREATE -> mirrorPod(node, a);
            case DELETE -> {
                if (!nodeName(a.oldObject()).equals(node)) {
                    throw forbidden(a, "node \"%s\" can only delete pods with spec.nodeName set to itself"
                            .formatted(node));
                }
            }
            default -> throw forbidden(a, ("unexpected operation \"%s\", node \"%s\" can only create and delete "
                    + "mirror pods").formatted(operation(a.operation()), node));
        }
    }

    private static String nodeName(JsonNode pod) {
        return pod == null ? "" : pod.path("spec").path("nodeName").asText("");
    }

    private void mirrorPod(String node, Attributes a) {
        ObjectNode pod = a.object();
        if (!pod.path("metadata").path("annotations").has(PodReferences.MIRROR_ANNOTATION)) {
            throw forbidden(a, "pod does not have \"%s\" annotation, node \"%s\" can only create mirror pods"
                    .formatted(PodReferences.MIRROR_ANNOTATION, node));
        }
        if (!nodeName(pod).equals(node)) {
            throw forbidden(a, "node \"%s\" can only create pods with spec.nodeName set to itself".formatted(node));
        }
        owner(node, a, pod.path("metadata").path("ownerReferences"));
        PodReferences refs = PodReferences.named(pod);
        if (!refs.serviceAccount().isEmpty()) {
            throw forbidden(a, "node \"%s\" can not create pods that reference a service account".formatted(node));
        }
        if (!refs.secrets().isEmpty()) {
            throw forbidden(a, "node \"%s\" can not create pods that reference secrets".formatted(node));
        }
        if (!refs.configMaps().isEmpty()) {
            throw forbidden(a, "node \"%s\" can not create pods that reference configmaps".formatted(node));
        }
        for (JsonNode v : pod.path("spec").path("volumes")) {
            for (JsonNode source : v.path("projected").path("sources")) {
                if (source.has("clusterTrustBundle")) {
                    throw forbidden(a, "node \"%s\" can not create pods that reference clustertrustbundles"
                            .formatted(node));
                }
            }
        }
        for (JsonNode v : pod.path("spec").path("volumes")) {
            if (v.has("persistentVolumeClaim")) {
                throw forbidden(a, "node \"%s\" can not create pods that reference persistentvolumeclaims"
                        .formatted(node));
            }
        }
    }

    /** A mirror pod has exactly one owner: its Node, as controller, not blocking deletion, with its UID. */
    private void owner(String node, Attributes a, JsonNode owners) {
        if (owners.size() > 1) {
            throw forbidden(a, "node \"%s\" can only create pods with a single owner reference set to itself"
                    .formatted(node));
        }
        JsonNode owner = owners.path(0);
        if (owners.isEmpty() || !owner.path("apiVersion").asText("").equals("v1")
                || !owner.path("kind").asText("").equals("Node") || !owner.path("name").asText("").equals(node)) {
            throw forbidden(a, "node \"%s\" can only create pods with an owner reference set to itself".formatted(node));
        }
        if (!owner.path("controller").asBoolean(false)) {
            throw forbidden(a, "node \"%s\" can only create pods with a controller owner reference set to itself"
                    .formatted(node));
        }
        if (owner.path("blockOwnerDeletion").asBoolean(false)) {
            throw forbidden(a, "node \"%s\" must not set blockOwnerDeletion on an owner reference".formatted(node));
        }
        ObjectNode stored = lookup.get(NODES, "", node).orElseThrow(() -> ApiException.notFound(NODES, node));
        String uid = stored.path("metadata").path("uid").asText("");
        if (!owner.path("uid").asText("").equals(uid)) {
            throw forbidden(a, "node %s UID mismatch: expected %s got %s".formatted(node,
                    owner.path("uid").asText(""), uid));
        }
    }

    private void podStatus(String node, Attributes a) {
        if (a.operation() != Operation.UPDATE) {
            throw forbidden(a, "unexpected operation \"%s\"".formatted(operation(a.operation())));
        }
        if (!nodeName(a.oldObject()).equals(node)) {
            throw forbidden(a, "node \"%s\" can only update pod status for pods with spec.nodeName set to itself"
                    .formatted(node));
        }
        if (!labels(a.oldObject()).equals(labels(a.object()))) {
            throw forbidden(a, "node \"%s\" cannot update labels through pod status".formatted(node));
        }
        if (!claimStatuses(a.oldObject()).equals(claimStatuses(a.object()))) {
            throw forbidden(a, "node \"%s\" cannot update resource claim statues".formatted(node));
        }
    }

    private static List<List<String>> claimStatuses(JsonNode pod) {
        List<List<String>> out = new ArrayList<>();
        for (JsonNode s : pod.path("status").path("resourceClaimStatuses")) {
            JsonNode claim = s.path("resourceClaimName");
            out.add(Arrays.asList(s.path("name").asText(""), claim.isTextual() ? claim.asText() : null));
        }
        return out;
    }

    private void podEviction(String node, Attributes a) {
        if (a.operation() != Operation.CREATE) {
            throw forbidden(a, "unexpected operation %s".formatted(operation(a.operation())));
        }
        String pod = a.target().name().isEmpty() ? a.object().path("metadata").path("name").asText("")
                : a.target().name();
        if (pod.isEmpty()) {
            throw forbidden(a, "could not determine pod from request data");
        }
        ObjectNode existing = lookup.get(PODS, a.target().namespace(), pod)
                .orElseThrow(() -> ApiException.notFound(PODS, pod));
        if (!nodeName(existing).equals(node)) {
            throw forbidden(a, "node %s can only evict pods with spec.nodeName set to itself".formatted(node));
        }
    }

    /** Only {@code status.capacity}, {@code status.conditions} and the allocated resources may change. */
    private static void claimStatus(String node, Attributes a) {
        if (a.operation() != Operation.UPDATE) {
            throw forbidden(a, "unexpected operation \"%s\"".formatted(operation(a.operation())));
        }
        if (!comparable(a.oldObject()).equals(comparable(a.object()))) {
            throw forbidden(a, ("node \"%s\" is not allowed to update fields other than status.quantity and "
                    + "status.conditions").formatted(node));
        }
    }

    private static JsonNode comparable(ObjectNode claim) {
        ObjectNode copy = claim.deepCopy();
        ObjectNode meta = copy.withObject("metadata");
        meta.remove(List.of("resourceVersion", "managedFields"));
        ObjectNode status = copy.withObject("status");
        status.remove(List.of("capacity", "conditions", "allocatedResourceStatuses", "allocatedResources"));
        return copy;
    }

    private static Map<String, String> labels(JsonNode object) {
        Map<String, String> out = new java.util.HashMap<>();
        if (object != null) {
            object.path("metadata").path("labels").properties().forEach(e -> out.put(e.getKey(), e.getValue().asText()));
        }
        return out;
    }

    private static void node(String node, Attributes a) {
        if (!a.target().name().equals(node)) {
            throw forbidden(a, "node \"%s\" is not allowed to modify node \"%s\"".formatted(node, a.target().name()));
        }
        if (a.operation() == Operation.CREATE) {
            if (a.object().path("spec").has("configSource")) {
                throw forbidden(a, "node \"%s\" is not allowed to create pods with a non-nil configSource"
                        .formatted(node));
            }
            Set<String> refused = forbiddenLabels(modified(labels(a.object()), Map.of()));
            if (!refused.isEmpty()) {
                throw forbidden(a, "node \"%s\" is not allowed to set the following labels: %s".formatted(node,
                        String.join(", ", refused)));
            }
        } else if (a.operation() == Operation.UPDATE) {
            JsonNode spec = a.object().path("spec");
            JsonNode oldSpec = a.oldObject().path("spec");
            if (spec.hasNonNull("configSource") && !spec.path("configSource").equals(oldSpec.path("configSource"))) {
                throw forbidden(a, "node \"%s\" is not allowed to update configSource to a new non-nil configSource"
                        .formatted(node));
            }
            if (!taints(spec).equals(taints(oldSpec))) {
                throw forbidden(a, "node \"%s\" is not allowed to modify taints".formatted(node));
            }
            Set<String> refused = forbiddenLabels(modified(labels(a.object()), labels(a.oldObject())));
            if (!refused.isEmpty()) {
                throw forbidden(a, "is not allowed to modify labels: " + String.join(", ", refused));
            }
        }
    }

    /**
     * Taints as kube's {@code apiequality.Semantic.DeepEqual} compares the decoded {@code []Taint}: absent,
     * null and empty lists are the same, and within a taint a field that is absent, null or the zero value
     * ({@code value: ""}) is the same, and {@code timeAdded} is an instant whatever its offset. Fields a
     * taint does not have are dropped, as decoding drops them.
     */
    private static List<List<Object>> taints(JsonNode spec) {
        List<List<Object>> out = new ArrayList<>();
        for (JsonNode t : spec.path("taints")) {
            out.add(Arrays.asList(text(t, "key"), text(t, "value"), text(t, "effect"), time(t.path("timeAdded"))));
        }
        return out;
    }

    private static String text(JsonNode taint, String field) {
        return taint.path(field).isTextual() ? taint.path(field).asText() : "";
    }

    private static Object time(JsonNode added) {
        if (!added.isTextual()) {
            return null;
        }
        try {
            return OffsetDateTime.parse(added.asText()).toInstant();
        } catch (DateTimeParseException e) {
            return added.asText();
        }
    }

    private static Set<String> modified(Map<String, String> a, Map<String, String> b) {
        Set<String> keys = new HashSet<>(a.keySet());
        keys.addAll(b.keySet());
        keys.removeIf(k -> Objects.equals(a.get(k), b.get(k)));
        return keys;
    }

    /** Labels a node may not add, change or remove, sorted. */
    private static Set<String> forbiddenLabels(Set<String> modified) {
        Set<String> refused = new TreeSet<>();
        for (String label : modified) {
            String ns = label.contains("/") ? label.substring(0, label.indexOf('/')) : "";
            if (within(ns, RESTRICTED_LABELS)) {
                refused.add(label);
            }
            if ((within(ns, "kubernetes.io") || within(ns, "k8s.io")) && !kubeletLabel(label, ns)) {
                refused.add(label);
            }
        }
        return refused;
    }

    private static boolean within(String labelNamespace, String domain) {
        return labelNamespace.equals(domain) || labelNamespace.endsWith("." + domain);
    }

    private static boolean kubeletLabel(String label, String ns) {
        return KUBELET_LABELS.contains(label) || KUBELET_LABEL_NAMESPACES.stream().anyMatch(d -> within(ns, d));
    }

    private static void lease(String node, Attributes a) {
        if (!a.target().namespace().equals("kube-node-lease")) {
            throw forbidden(a, "can only access leases in the \"kube-node-lease\" system namespace");
        }
        if (!ownName(a).equals(node)) {
            throw forbidden(a, "can only access node lease with the same name as the requesting node");
        }
    }

    private static void csiNode(String node, Attributes a) {
        if (!ownName(a).equals(node)) {
            throw forbidden(a, "can only access CSINode with the same name as the requesting node");
        }
    }

    /** The name written: on create the object's (the request names none), else the request's. */
    private static String ownName(Attributes a) {
        return a.operation() == Operation.CREATE ? a.object().path("metadata").path("name").asText("")
                : a.target().name();
    }

    private static void resourceSlice(String node, Attributes a) {
        if (a.operation() == Operation.CREATE && !nodeName(a.object()).equals(node)) {
            throw forbidden(a, "can only create ResourceSlice with the same NodeName as the requesting node");
        }
        if (a.operation() == Operation.DELETE && !nodeName(a.oldObject()).equals(node)) {
            throw forbidden(a, "can only delete ResourceSlice with the same NodeName as the requesting node");
        }
    }
}

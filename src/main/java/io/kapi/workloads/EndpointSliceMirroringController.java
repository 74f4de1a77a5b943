package io.kapi.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.client.LocalClient;
import io.kapi.client.ResourceClient;
import io.kapi.informers.EventHandler;
import io.kapi.informers.Informer;
import io.kapi.informers.QueueController;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import io.kapi.registry.DeleteOptions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube-controller-manager's endpointslice mirroring controller: the Endpoints of a Service without a selector
 * (written by the user, or another controller) are mirrored into EndpointSlices of the same namespace, one
 * set per distinct port list and address family ({@link MirroredSlices}), named {@code <service>-<random>},
 * controlled by the Endpoints, labelled with its labels plus {@code kubernetes.io/service-name} and
 * {@code endpointslice.kubernetes.io/managed-by: endpointslicemirroring-controller.k8s.io}, annotated with
 * its annotations but the trigger time and kubectl's last-applied configuration. Not mirrored, and their
 * mirrored slices deleted: Endpoints of a Service with a selector or of no Service, Endpoints labelled
 * {@code endpointslice.kubernetes.io/skip-mirror: "true"} (what kube-apiserver puts on the {@code kubernetes} Service's), and
 * leader-election Endpoints (annotation {@code control-plane.alpha.kubernetes.io/leader}). At most 1,000
 * addresses of each subset are mirrored (kube's {@code --mirroring-max-endpoints-per-subset}); skipped ones
 * are reported by the events InvalidIPAddress and TooManyAddressesToMirror, as kube's.
 */
final class EndpointSliceMirroringController implements WorkloadController {

    static final GroupVersionResource SERVICES = new GroupVersionResource("", "v1", "services");
    static final GroupVersionResource SLICES = SliceManager.SLICES;
    static final SliceManager MANAGER = new SliceManager("endpointslicemirroring-controller.k8s.io");
    /** kube's {@code --mirroring-max-endpoints-per-subset} default. */
    static final int MAX_PER_SUBSET = 1000;

    private final ResourceClient slices;
    private final Informer endpointsInformer;
    private final Informer serviceInformer;
    private final Informer sliceInformer;
    private final EventRecorder events;
    private final QueueController controller;

    EndpointSliceMirroringController(LocalClient client, SharedInformers informers, Clock clock) {
        this.slices = client.resource(SLICES);
        this.endpointsInformer = informers.informer(EndpointsController.ENDPOINTS);
        this.serviceInformer = informers.informer(SERVICES);
        this.sliceInformer = informers.informer(SLICES);
        this.events = new EventRecorder(client.resource("", "v1", "events"), "endpointslice-mirroring-controller",
                clock);
        this.controller = new QueueController("endpointslice-mirroring-controller", 5, this::sync);
        endpointsInformer.addHandler(controller.enqueueing());
        serviceInformer.addHandler(controller.enqueueing());
        sliceInformer.addHandler(EventHandler.onAnyChange(slice -> MANAGER.serviceKey(slice)
                .ifPresent(controller.queue()::add)));
    }

    @Override
    public String name() {
        return "start-kapi-endpointslice-mirroring-controller";
    }

    @Override
    public void run() {
        controller.start();
    }

    @Override
    public void close() {
        controller.close();
    }

    private void sync(String key) {
        String namespace = QueueController.namespace(key);
        String name = QueueController.name(key);
        List<ObjectNode> existing = mirrored(namespace, name);
        ObjectNode service = serviceInformer.get(namespace, name).orElse(null);
        ObjectNode endpoints = endpointsInformer.get(namespace, name).orElse(null);
        if (service == null || service.path("spec").hasNonNull("selector") || endpoints == null
                || !shouldMirror(endpoints)) {
            existing.forEach(this::delete);
            return;
        }
        endpoints = typed(endpoints);
        MirroredSlices.Desired desired = MirroredSlices.desired(endpoints.path("subsets"), MAX_PER_SUBSET);
        if (desired.invalid() > 0) {
            events.warning(endpoints, "InvalidIPAddress",
                    "Skipped %d invalid IP addresses when mirroring to EndpointSlices".formatted(desired.invalid()));
        }
        if (desired.skipped() > desired.invalid()) {
            events.warning(endpoints, "TooManyAddressesToMirror", ("A max of %d addresses can be mirrored to "
                    + "EndpointSlices per Endpoints subset. %d addresses were skipped").formatted(MAX_PER_SUBSET,
                    desired.skipped()));
        }
        reconcile(endpoints, desired, existing);
    }

    /** {@code shouldMirror}: not labelled skip-mirror, not a leader-election lock. */
    static boolean shouldMirror(JsonNode endpoints) {
        JsonNode meta = endpoints.path("metadata");
        return !meta.path("labels").path("endpointslice.kubernetes.io/skip-mirror").asText().equals("true")
                && !meta.path("annotations").has("control-plane.alpha.kubernetes.io/leader");
    }

    private List<ObjectNode> mirrored(String namespace, String service) {
        return MANAGER.slicesOf(sliceInformer, namespace, service);
    }

    /** Existing slices keep the endpoints still wanted, in their order; new endpoints fill them, then new slices. */
    private void reconcile(ObjectNode endpoints, MirroredSlices.Desired desired, List<ObjectNode> existing) {
        ObjectNode labels = labels(endpoints);
        ObjectNode annotations = annotations(endpoints);
        Map<String, List<ObjectNode>> existingByKey = new LinkedHashMap<>();
        for (ObjectNode slice : existing) {
            existingByKey.computeIfAbsent(MirroredSlices.key(slice.path("ports"), slice.path("addressType").asText()),
                    k -> new ArrayList<>()).add(slice);
        }
        for (MirroredSlices.Group group : desired.groups().values()) {
            List<ObjectNode> current = existingByKey.remove(group.key());
            Map<String, ObjectNode> wanted = new LinkedHashMap<>(group.endpoints());
            List<ObjectNode> keep = new ArrayList<>();
            for (ObjectNode slice : current == null ? List.<ObjectNode>of() : current) {
                ArrayNode kept = Json.NODES.arrayNode();
                for (JsonNode e : slice.path("endpoints")) {
                    ObjectNode w = wanted.remove(e.path("addresses").path(0).asText());
                    if (w != null) {
                        kept.add(w);
                    }
                }
                if (kept.isEmpty()) {
                    delete(slice);
                } else {
                    ObjectNode updated = slice.deepCopy();
                    updated.set("endpoints", kept);
                    keep.add(updated);
                }
            }
            Iterator<ObjectNode> remaining = wanted.values().iterator();
            for (ObjectNode slice : keep) {
                ArrayNode list = (ArrayNode) slice.get("endpoints");
                while (list.size() < MAX_PER_SUBSET && remaining.hasNext()) {
                    list.add(remaining.next());
                }
                write(slice, labels, annotations, existing);
            }
            while (remaining.hasNext()) {
                ObjectNode slice = newSlice(endpoints, group);
                ArrayNode list = slice.putArray("endpoints");
                while (list.size() < MAX_PER_SUBSET && remaining.hasNext()) {
                    list.add(remaining.next());
                }
                slice.with("metadata").set("labels", labels);
                if (!annotations.isEmpty()) {
                    slice.with("metadata").set("annotations", annotations);
                }
                slices.create(ObjectMeta.of(endpoints).namespace(), slice);
            }
        }
        existingByKey.values().forEach(list -> list.forEach(this::delete));
    }

    /** Updates {@code slice} when its endpoints, labels or annotations differ from what it had. */
    private void write(ObjectNode slice, ObjectNode labels, ObjectNode annotations, List<ObjectNode> existing) {
        ObjectNode meta = slice.with("metadata");
        ObjectNode before = existing.stream().filter(s -> ObjectMeta.of(s).name().equals(ObjectMeta.of(slice).name()))
                .findFirst().orElseThrow();
        boolean same = before.path("endpoints").equals(slice.path("endpoints"))
                && before.path("metadata").path("labels").equals(labels)
                && annotationsOf(before).equals(annotations);
        if (same) {
            return;
        }
        meta.set("labels", labels);
        if (annotations.isEmpty()) {
            meta.remove("annotations");
        } else {
            meta.set("annotations", annotations);
        }
        slice.put("apiVersion", "discovery.k8s.io/v1");
        slice.put("kind", "EndpointSlice");
        slices.update(slice);
    }

    private static ObjectNode annotationsOf(JsonNode slice) {
        JsonNode a = slice.path("metadata").path("annotations");
        return a.isObject() ? (ObjectNode) a : Json.object();
    }

    private static ObjectNode newSlice(ObjectNode endpoints, MirroredSlices.Group group) {
        ObjectMeta meta = ObjectMeta.of(endpoints);
        ObjectNode slice = Json.object();
        slice.put("apiVersion", "discovery.k8s.io/v1");
        slice.put("kind", "EndpointSlice");
        ObjectNode m = slice.putObject("metadata");
        m.put("generateName", meta.name() + "-");
        m.put("namespace", meta.namespace());
        ObjectNode ref = Pods.controllerRef(endpoints);
        m.putArray("ownerReferences").add(ref);
        slice.put("addressType", group.addressType());
        slice.set("ports", group.ports());
        return slice;
    }

    /** The Endpoints' labels, with the service name and the manager set over them. */
    private static ObjectNode labels(ObjectNode endpoints) {
        return MANAGER.labels(endpoints);
    }

    /** The Endpoints' annotations but the trigger time and kubectl's last-applied configuration. */
    private static ObjectNode annotations(ObjectNode endpoints) {
        ObjectNode annotations = Json.object();
        endpoints.path("metadata").path("annotations").properties().forEach(e -> {
            if (!e.getKey().equals(ServiceBackends.TRIGGER_TIME)
                    && !e.getKey().equals("kubectl.kubernetes.io/last-applied-configuration")) {
                annotations.set(e.getKey(), e.getValue());
            }
        });
        return annotations;
    }

    private static ObjectNode typed(ObjectNode endpoints) {
        ObjectNode copy = endpoints.deepCopy();
        copy.put("apiVersion", "v1");
        copy.put("kind", "Endpoints");
        return copy;
    }

    private void delete(ObjectNode slice) {
        try {
            slices.delete(ObjectMeta.of(slice).namespace(), ObjectMeta.of(slice).name(),
                    new DeleteOptions(ObjectMeta.of(slice).uid(), null, false, null, null));
        } catch (ApiException e) {
            if (e.reason() != StatusReason.NOT_FOUND && e.reason() != StatusReason.CONFLICT) {
                throw e;
            }
        }
    }
}

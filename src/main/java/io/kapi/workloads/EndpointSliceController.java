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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube-controller-manager's endpointslice controller: every Service with a selector has EndpointSlices
 * ({@code discovery.k8s.io/v1}, named {@code <service>-<random>}, controlled by the Service) listing the
 * selected Pods that have an IP, each with its {@code ready}, {@code serving} and {@code terminating}
 * conditions, its node and a reference to it; one slice per address type and port list, at most
 * {@link #MAX_ENDPOINTS} endpoints each, and one empty placeholder slice while there is none. Labelled
 * {@code kubernetes.io/service-name}, {@code endpointslice.kubernetes.io/managed-by:
 * endpointslice-controller.k8s.io} (and the Service's labels), annotated with the last change's time. The
 * slices of a deleted Service go with it (the garbage collector, through their owner reference).
 */
final class EndpointSliceController implements WorkloadController {

    static final GroupVersionResource SLICES = SliceManager.SLICES;
    static final SliceManager MANAGER = new SliceManager("endpointslice-controller.k8s.io");
    /** kube's {@code --max-endpoints-per-slice} default. */
    static final int MAX_ENDPOINTS = 100;

    private final ResourceClient slices;
    private final Informer sliceInformer;
    private final ServiceBackends backends;
    private final QueueController controller;

    EndpointSliceController(LocalClient client, SharedInformers informers, Clock clock) {
        this.slices = client.resource(SLICES);
        this.sliceInformer = informers.informer(SLICES);
        this.backends = new ServiceBackends(informers, clock);
        this.controller = new QueueController("endpointslice-controller", 5, this::sync);
        backends.feed(controller);
        sliceInformer.addHandler(new EventHandler() {
            @Override
            public void onDelete(ObjectNode slice) {
                requeueOwner(slice); // someone deleted a managed slice: kube makes it again
            }
        });
    }

    private void requeueOwner(ObjectNode slice) {
        MANAGER.serviceKey(slice).ifPresent(controller.queue()::add);
    }

    @Override
    public String name() {
        return "start-kapi-endpointslice-controller";
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
        ObjectNode service = backends.services.get(namespace, QueueController.name(key)).orElse(null);
        if (service == null) {
            backends.forget(key);
            return;
        }
        if (!ServiceBackends.selecting(service)) {
            return;
        }
        service = service.deepCopy();
        service.put("apiVersion", "v1");
        service.put("kind", "Service");
        List<ObjectNode> existing = new ArrayList<>(MANAGER.slicesOf(sliceInformer, namespace,
                ObjectMeta.of(service).name()));
        existing.removeIf(Pods::terminating);
        List<ObjectNode> wanted = desired(service);
        String trigger = backends.triggerTime(key);
        List<ObjectNode> unused = new ArrayList<>(existing);
        for (ObjectNode want : wanted) {
            ObjectNode match = closest(want, unused);
            if (match != null) {
                unused.remove(match);
                if (!same(match, want, service)) {
                    ObjectNode updated = match.deepCopy();
                    updated.put("apiVersion", "discovery.k8s.io/v1");
                    updated.put("kind", "EndpointSlice");
                    updated.set("endpoints", want.path("endpoints"));
                    setOrRemove(updated, "ports", want.path("ports"));
                    updated.with("metadata").set("labels", labels(service));
                    updated.with("metadata").with("annotations").put(ServiceBackends.TRIGGER_TIME, trigger);
                    slices.update(updated);
                }
            } else {
                ObjectNode slice = want.deepCopy();
                ObjectNode meta = slice.putObject("metadata");
                meta.put("generateName", ObjectMeta.of(service).name() + "-");
                meta.put("namespace", namespace);
                meta.set("labels", labels(service));
                meta.putObject("annotations").put(ServiceBackends.TRIGGER_TIME, trigger);
                meta.putArray("ownerReferences").add(Pods.controllerRef(service));
                try {
                    slices.create(namespace, slice);
                } catch (ApiException e) {
                    if (!e.namespaceTerminating()) {
                        throw e;
                    }
                }
            }
        }
        for (ObjectNode stale : unused) {
            try {
                slices.delete(namespace, ObjectMeta.of(stale).name(),
                        new DeleteOptions(ObjectMeta.of(stale).uid(), null, false, null, null));
            } catch (ApiException e) {
                if (e.reason() != StatusReason.NOT_FOUND) {
                    throw e;
                }
            }
        }
    }

    private static void setOrRemove(ObjectNode o, String field, JsonNode value) {
        if (value.isMissingNode() || value.isNull()) {
            o.remove(field);
        } else {
            o.set(field, value);
        }
    }

    /** An existing slice of the same address type and ports, else of the same address type, or null. */
    private static ObjectNode closest(ObjectNode want, List<ObjectNode> candidates) {
        ObjectNode sameType = null;
        for (ObjectNode c : candidates) {
            if (c.path("addressType").equals(want.path("addressType"))) {
                if (c.path("ports").equals(want.path("ports"))) {
                    return c;
                }
                sameType = sameType == null ? c : sameType;
            }
        }
        return sameType;
    }

    private static boolean same(ObjectNode existing, ObjectNode want, ObjectNode service) {
        JsonNode endpoints = existing.path("endpoints").isArray() ? existing.path("endpoints") : Json.NODES.arrayNode();
        return endpoints.equals(want.path("endpoints")) && existing.path("ports").equals(want.path("ports"))
                && existing.path("metadata").path("labels").equals(labels(service));
    }

    private static ObjectNode labels(ObjectNode service) {
        ObjectNode labels = MANAGER.labels(service);
        if (ServiceBackends.headless(service)) {
            labels.put("service.kubernetes.io/headless", "");
        }
        return labels;
    }

    /** The slices the Service should have now (without metadata): grouped by address type and ports. */
    private List<ObjectNode> desired(ObjectNode service) {
        Map<String, List<ServiceBackends.Backend>> groups = new LinkedHashMap<>();
        for (ServiceBackends.Backend b : backends.backends(service, true)) {
            String type = b.ip().contains(":") ? "IPv6" : "IPv4";
            groups.computeIfAbsent(type + " " + b.ports(), k -> new ArrayList<>()).add(b);
        }
        List<ObjectNode> out = new ArrayList<>();
        for (List<ServiceBackends.Backend> group : groups.values()) {
            for (int from = 0; from < group.size(); from += MAX_ENDPOINTS) {
                List<ServiceBackends.Backend> part = group.subList(from, Math.min(group.size(), from + MAX_ENDPOINTS));
                ObjectNode slice = slice(part.getFirst().ip().contains(":") ? "IPv6" : "IPv4");
                ArrayNode endpoints = slice.putArray("endpoints");
                for (ServiceBackends.Backend b : part) {
                    endpoints.add(endpoint(b));
                }
                if (!part.getFirst().ports().isEmpty()) {
                    slice.set("ports", part.getFirst().ports());
                }
                out.add(slice);
            }
        }
        if (out.isEmpty()) {
            ObjectNode placeholder = slice(service.path("spec").path("ipFamilies").path(0).asText("IPv4"));
            placeholder.putArray("endpoints");
            out.add(placeholder);
        }
        return out;
    }

    private static ObjectNode slice(String addressType) {
        ObjectNode slice = Json.object();
        slice.put("apiVersion", "discovery.k8s.io/v1");
        slice.put("kind", "EndpointSlice");
        slice.put("addressType", addressType);
        return slice;
    }

    private static ObjectNode endpoint(ServiceBackends.Backend b) {
        ObjectNode e = Json.object();
        e.putArray("addresses").add(b.ip());
        ObjectNode conditions = e.putObject("conditions");
        conditions.put("ready", b.ready());
        conditions.put("serving", b.serving());
        conditions.put("terminating", b.terminating());
        String node = b.pod().path("spec").path("nodeName").asText("");
        if (!node.isEmpty()) {
            e.put("nodeName", node);
        }
        e.set("targetRef", ServiceBackends.targetRef(b.pod()));
        return e;
    }
}

package io.kapi.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.client.LocalClient;
import io.kapi.client.ResourceClient;
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
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * kube-controller-manager's endpoints controller: every Service with a selector has an Endpoints object of
 * its name listing the selected Pods that have an IP, Ready ones under {@code addresses}, the others under
 * {@code notReadyAddresses}, grouped by the ports they serve (named ports resolved on each Pod); labelled
 * with the Service's labels, {@code endpoints.kubernetes.io/managed-by: endpoint-controller} and, for a
 * headless Service, {@code service.kubernetes.io/headless}; annotated with the last change's time. A Service
 * without a selector is left alone (its Endpoints are the user's); a deleted Service's Endpoints are deleted.
 */
final class EndpointsController implements WorkloadController {

    static final GroupVersionResource ENDPOINTS = new GroupVersionResource("", "v1", "endpoints");
    static final String MANAGED_BY = "endpoints.kubernetes.io/managed-by";

    private final ResourceClient endpoints;
    private final Informer endpointsInformer;
    private final ServiceBackends backends;
    private final QueueController controller;

    EndpointsController(LocalClient client, SharedInformers informers, Clock clock) {
        this.endpoints = client.resource(ENDPOINTS);
        this.endpointsInformer = informers.informer(ENDPOINTS);
        this.backends = new ServiceBackends(informers, clock);
        this.controller = new QueueController("endpoints-controller", 5, this::sync);
        backends.feed(controller);
    }

    @Override
    public String name() {
        return "start-kapi-endpoints-controller";
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
        ObjectNode service = backends.services.get(namespace, name).orElse(null);
        ObjectNode current = endpointsInformer.get(namespace, name).orElse(null);
        if (service == null) {
            backends.forget(key);
            if (current != null && current.path("metadata").path("labels").path(MANAGED_BY).asText("")
                    .equals("endpoint-controller")) {
                delete(current);
            }
            return;
        }
        if (!ServiceBackends.selecting(service)) {
            return;
        }
        ArrayNode subsets = subsets(service);
        ObjectNode labels = labels(service);
        if (current != null && subsets.equals(withoutEmpty(current.path("subsets")))
                && labels.equals(current.path("metadata").path("labels"))) {
            return;
        }
        ObjectNode wanted = current == null ? Json.object() : current.deepCopy();
        wanted.put("apiVersion", "v1");
        wanted.put("kind", "Endpoints");
        ObjectNode meta = wanted.with("metadata");
        meta.put("name", name);
        meta.put("namespace", namespace);
        meta.set("labels", labels);
        meta.with("annotations").put(ServiceBackends.TRIGGER_TIME, backends.triggerTime(key));
        if (subsets.isEmpty()) {
            wanted.remove("subsets");
        } else {
            wanted.set("subsets", subsets);
        }
        try {
            if (current == null) {
                endpoints.create(namespace, wanted);
            } else {
                endpoints.update(wanted);
            }
        } catch (ApiException e) {
            // a namespace being deleted takes the Endpoints with it; anything else is retried
            if (!(current == null && e.namespaceTerminating())) {
                throw e;
            }
        }
    }

    private static JsonNode withoutEmpty(JsonNode subsets) {
        return subsets.isMissingNode() || subsets.isNull() ? Json.NODES.arrayNode() : subsets;
    }

    private static ObjectNode labels(ObjectNode service) {
        ObjectNode labels = Json.object();
        service.path("metadata").path("labels").properties().forEach(e -> labels.set(e.getKey(), e.getValue()));
        labels.put(MANAGED_BY, "endpoint-controller");
        if (ServiceBackends.headless(service)) {
            labels.put("service.kubernetes.io/headless", "");
        } else {
            labels.remove("service.kubernetes.io/headless");
        }
        return labels;
    }

    /** The subsets, one per distinct port list (kube's {@code RepackSubsets}), addresses sorted by IP. */
    private ArrayNode subsets(ObjectNode service) {
        Map<String, ObjectNode> byPorts = new LinkedHashMap<>();
        boolean noPorts = service.path("spec").path("ports").isEmpty();
        for (ServiceBackends.Backend b : backends.backends(service, false)) {
            if (b.ports().isEmpty() && !(noPorts && ServiceBackends.headless(service))) {
                continue;
            }
            ObjectNode subset = byPorts.computeIfAbsent(b.ports().toString(), k -> {
                ObjectNode s = Json.object();
                if (!b.ports().isEmpty()) {
                    s.set("ports", b.ports());
                }
                return s;
            });
            ObjectNode address = Json.object();
            address.put("ip", b.ip());
            String node = b.pod().path("spec").path("nodeName").asText("");
            if (!node.isEmpty()) {
                address.put("nodeName", node);
            }
            address.set("targetRef", ServiceBackends.targetRef(b.pod()));
            subset.withArray(b.ready() ? "addresses" : "notReadyAddresses").add(address);
        }
        ArrayNode subsets = Json.NODES.arrayNode();
        byPorts.values().forEach(s -> {
            ObjectNode ordered = Json.object();
            for (String field : new String[] {"addresses", "notReadyAddresses", "ports"}) {
                if (s.has(field)) {
                    ordered.set(field, s.get(field));
                }
            }
            subsets.add(ordered);
        });
        return subsets;
    }

    private void delete(ObjectNode current) {
        try {
            endpoints.delete(ObjectMeta.of(current).namespace(), ObjectMeta.of(current).name(),
                    new DeleteOptions(ObjectMeta.of(current).uid(), null, false, null, null));
        } catch (ApiException e) {
            if (e.reason() != StatusReason.NOT_FOUND) {
                throw e;
            }
        }
    }
}

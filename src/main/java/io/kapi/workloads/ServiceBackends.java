package io.kapi.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.informers.EventHandler;
import io.kapi.informers.Informer;
import io.kapi.informers.QueueController;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.labels.LabelSelector;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the endpoints and endpointslice controllers share: the Services' and Pods' informers, a queue of
 * Service keys fed by both (a Pod's change queues every Service whose selector matches it, before or after),
 * the time of each Service's last triggering change ({@code endpoints.kubernetes.io/last-change-trigger-time}),
 * and kube's reading of a Pod as a backend ({@code ShouldPodBeInEndpoints}, {@code FindPort}).
 */
final class ServiceBackends {

    static final GroupVersionResource SERVICES = new GroupVersionResource("", "v1", "services");
    static final String TRIGGER_TIME = "endpoints.kubernetes.io/last-change-trigger-time";

    /** One Pod as a backend of one Service. */
    record Backend(ObjectNode pod, String ip, boolean ready, boolean serving, boolean terminating, ArrayNode ports) {
    }

    final Informer services;
    final Informer pods;
    private final Clock clock;
    private final Map<String, Instant> triggers = new ConcurrentHashMap<>();

    ServiceBackends(SharedInformers informers, Clock clock) {
        this.services = informers.informer(SERVICES);
        this.pods = informers.informer(ReplicaSetController.PODS);
        this.clock = clock;
    }

    /** Feeds {@code controller} with the keys of the Services that Service and Pod changes concern. */
    void feed(QueueController controller) {
        services.addHandler(EventHandler.onAnyChange(s -> {
            triggered(QueueController.key(s));
            controller.enqueue(s);
        }));
        pods.addHandler(new EventHandler() {
            @Override
            public void onAdd(ObjectNode pod) {
                queueSelecting(controller, pod);
            }

            @Override
            public void onUpdate(ObjectNode before, ObjectNode after) {
                queueSelecting(controller, before);
                queueSelecting(controller, after);
            }

            @Override
            public void onDelete(ObjectNode pod) {
                queueSelecting(controller, pod);
            }
        });
    }

    private void triggered(String key) {
        triggers.put(key, clock.instant());
    }

    private void queueSelecting(QueueController controller, ObjectNode pod) {
        for (ObjectNode service : services.list(ObjectMeta.of(pod).namespace())) {
            JsonNode selector = service.path("spec").path("selector");
            if (selector.isObject() && LabelSelector.fromSet(selector).matches(pod.path("metadata").path("labels"))) {
                String key = QueueController.key(service);
                triggered(key);
                controller.queue().add(key);
            }
        }
    }

    /** The last change that concerned the Service, RFC 3339 (kube writes it with nanoseconds). */
    String triggerTime(String key) {
        Instant at = triggers.getOrDefault(key, clock.instant());
        return java.time.format.DateTimeFormatter.ISO_INSTANT.format(at);
    }

    void forget(String key) {
        triggers.remove(key);
    }

    /** Whether the Service has a selector: without one its endpoints are the user's (kube leaves them alone). */
    static boolean selecting(JsonNode service) {
        return service.path("spec").path("selector").isObject();
    }

    static boolean headless(JsonNode service) {
        return service.path("spec").path("clusterIP").asText("").equals("None");
    }

    /**
     * The Pods the Service selects that belong in its endpoints: with an IP, not finished, and (unless
     * {@code includeTerminating} or the Service publishes not-ready addresses) not terminating. Sorted by IP.
     */
    List<Backend> backends(ObjectNode service, boolean includeTerminating) {
        LabelSelector selector = LabelSelector.fromSet(service.path("spec").path("selector"));
        boolean publishNotReady = service.path("spec").path("publishNotReadyAddresses").asBoolean(false);
        List<Backend> out = new ArrayList<>();
        for (ObjectNode pod : pods.list(ObjectMeta.of(service).namespace())) {
            if (!selector.matches(pod.path("metadata").path("labels"))) {
                continue;
            }
            String ip = pod.path("status").path("podIP").asText("");
            String phase = pod.path("status").path("phase").asText("");
            boolean terminating = Pods.terminating(pod);
            if (ip.isEmpty() || phase.equals("Succeeded") || phase.equals("Failed")
                    || (terminating && !includeTerminating && !publishNotReady)) {
                continue;
            }
            boolean serving = Pods.ready(pod) || publishNotReady;
            out.add(new Backend(pod, ip, serving && !terminating || publishNotReady, serving, terminating,
                    ports(service, pod)));
        }
        out.sort(java.util.Comparator.comparing(Backend::ip).thenComparing(b -> ObjectMeta.of(b.pod()).uid()));
        return out;
    }

    /** The Service's ports as this Pod serves them (kube's {@code FindPort}); one it cannot resolve is left out. */
    private static ArrayNode ports(JsonNode service, JsonNode pod) {
        ArrayNode ports = Json.NODES.arrayNode();
        for (JsonNode sp : service.path("spec").path("ports")) {
            Integer number = findPort(pod, sp);
            if (number == null) {
                continue;
            }
            ObjectNode p = ports.addObject();
            if (sp.hasNonNull("name") && !sp.path("name").asText().isEmpty()) {
                p.put("name", sp.path("name").asText());
            }
            p.put("port", number);
            p.put("protocol", sp.path("protocol").asText("TCP"));
            if (sp.hasNonNull("appProtocol")) {
                p.put("appProtocol", sp.path("appProtocol").asText());
            }
        }
        return ports;
    }

    static Integer findPort(JsonNode pod, JsonNode servicePort) {
        JsonNode target = servicePort.path("targetPort");
        if (target.isMissingNode() || target.isNull()) {
            return servicePort.path("port").asInt();
        }
        if (target.isNumber()) {
            return target.asInt();
        }
        String name = target.asText();
        String protocol = servicePort.path("protocol").asText("TCP");
        for (JsonNode c : pod.path("spec").path("containers")) {
            for (JsonNode cp : c.path("ports")) {
                if (cp.path("name").asText("").equals(name) && cp.path("protocol").asText("TCP").equals(protocol)) {
                    return cp.path("containerPort").asInt();
                }
            }
        }
        try {
            return Integer.parseInt(name);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** A target reference to the Pod. */
    static ObjectNode targetRef(JsonNode pod) {
        ObjectNode ref = Json.object();
        ref.put("kind", "Pod");
        ref.put("namespace", pod.path("metadata").path("namespace").asText());
        ref.put("name", pod.path("metadata").path("name").asText());
        ref.put("uid", pod.path("metadata").path("uid").asText());
        return ref;
    }
}

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
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * kube-controller-manager's horizontal pod autoscaler, as it behaves where no metrics API is served (Kapi
 * serves none; an aggregated {@code metrics.k8s.io} is not read yet): every {@link #RESYNC} (the first time one
 * period after it appears, as kube's queue holds every request that long) each
 * HorizontalPodAutoscaler reads its target's {@code scale} subresource (condition AbleToScale
 * SucceededGetScale, or FailedGetScale with the error); a target below {@code minReplicas} or above
 * {@code maxReplicas} is scaled to the bound whatever the metrics (SucceededRescale, event SuccessfulRescale,
 * {@code lastScaleTime}), a target at zero replicas is left alone (ScalingActive False ScalingDisabled);
 * otherwise the metrics cannot be had: ScalingActive False with the first metric's reason
 * (FailedGetResourceMetric, ...) and kube's message, events for that metric and FailedComputeMetricsReplicas,
 * and {@code currentReplicas} from the scale, {@code desiredReplicas} as it was, {@code currentMetrics} one
 * empty entry per metric, as kube writes them.
 */
final class HorizontalPodAutoscalerController implements WorkloadController {

    static final GroupVersionResource HPAS = new GroupVersionResource("autoscaling", "v2", "horizontalpodautoscalers");
    /** kube's {@code --horizontal-pod-autoscaler-sync-period} default. */
    static final Duration RESYNC = Duration.ofSeconds(15);
    private static final String NO_RESOURCE_METRICS = "unable to fetch metrics from resource metrics API: the server "
            + "could not find the requested resource (get pods.metrics.k8s.io)";
    private static final String NO_CUSTOM_METRICS = "no known available metric versions found";

    private final LocalClient client;
    private final ResourceClient hpas;
    private final Informer informer;
    private final EventRecorder events;
    private final QueueController controller;
    private final Clock clock;

    HorizontalPodAutoscalerController(LocalClient client, SharedInformers informers, Clock clock) {
        this.client = client;
        this.clock = clock;
        this.hpas = client.resource(HPAS);
        this.informer = informers.informer(HPAS);
        this.events = new EventRecorder(client.resource("", "v1", "events"), "horizontal-pod-autoscaler", clock);
        this.controller = new QueueController("horizontal-pod-autoscaler", 5, this::sync);
        // kube's enqueueHPA: every request waits a sync period in the queue (one at a time per HPA), so each
        // HPA is processed once a period, its first time one period after it appears
        informer.addHandler(EventHandler.onAnyChange(o -> controller.queue().addAfter(QueueController.key(o), RESYNC)));
    }

    @Override
    public String name() {
        return "start-kapi-horizontal-pod-autoscaler";
    }

    @Override
    public void run() {
        controller.start();
    }

    @Override
    public void close() {
        controller.close();
    }

    /** A condition to set, in kube's {@code setCondition} terms. */
    private record Condition(String type, String status, String reason, String message) {
    }

    private void sync(String key) {
        ObjectNode hpa = informer.get(QueueController.namespace(key), QueueController.name(key)).orElse(null);
        if (hpa == null) {
            return;
        }
        controller.queue().addAfter(key, RESYNC);
        hpa = hpa.deepCopy();
        hpa.put("apiVersion", "autoscaling/v2");
        hpa.put("kind", "HorizontalPodAutoscaler");
        JsonNode original = hpa.path("status").deepCopy();
        ObjectNode status = hpa.with("status");
        JsonNode spec = hpa.path("spec");
        JsonNode target = spec.path("scaleTargetRef");
        ObjectNode scale;
        try {
            scale = scaleOf(ObjectMeta.of(hpa).namespace(), target);
        } catch (ApiException | IllegalArgumentException e) {
            events.warning(hpa, "FailedGetScale", e.getMessage());
            set(status, new Condition("AbleToScale", "False", "FailedGetScale",
                    "the HPA controller was unable to get the target's current scale: " + e.getMessage()));
            writeIfChanged(hpa, original);
            return;
        }
        set(status, new Condition("AbleToScale", "True", "SucceededGetScale",
                "the HPA controller was able to get the target's current scale"));
        int current = scale.path("spec").path("replicas").asInt(0);
        int min = spec.path("minReplicas").asInt(1);
        int max = spec.path("maxReplicas").asInt();
        if (current == 0 && min != 0) {
            set(status, new Condition("ScalingActive", "False", "ScalingDisabled",
                    "scaling is disabled since the replica count of the target is zero"));
            setStatus(status, current, current, null, false);
        } else if (current > max || current < min) {
            int desired = current > max ? max : min;
            String reason = current > max ? "Current number of replicas above Spec.MaxReplicas"
                    : "Current number of replicas below Spec.MinReplicas";
            rescale(hpa, status, scale, current, desired, reason);
        } else {
            failMetrics(hpa, status, scale, current);
        }
        writeIfChanged(hpa, original);
    }

    private void rescale(ObjectNode hpa, ObjectNode status, ObjectNode scale, int current, int desired,
            String reason) {
        ObjectNode updated = scale.deepCopy();
        updated.with("spec").put("replicas", desired);
        JsonNode target = hpa.path("spec").path("scaleTargetRef");
        try {
            resourceOf(target).update(updated, "scale");
        } catch (ApiException e) {
            events.warning(hpa, "FailedRescale", "New size: %d; reason: %s; error: %s".formatted(desired, reason,
                    e.getMessage()));
            set(status, new Condition("AbleToScale", "False", "FailedUpdateScale",
                    "the HPA controller was unable to update the target scale: " + e.getMessage()));
            setStatus(status, current, status.path("desiredReplicas").asInt(0), null, false);
            return;
        }
        set(status, new Condition("AbleToScale", "True", "SucceededRescale",
                "the HPA controller was able to update the target scale to " + desired));
        events.normal(hpa, "SuccessfulRescale", "New size: %d; reason: %s".formatted(desired, reason));
        setStatus(status, current, desired, null, true);
    }

    /** {@code computeReplicasForMetrics} with no metrics API: every metric fails, the first one's condition stays. */
    private void failMetrics(ObjectNode hpa, ObjectNode status, ObjectNode scale, int current) {
        String selector = scale.path("status").path("selector").asText("");
        if (selector.isEmpty()) {
            events.warning(hpa, "SelectorRequired", "selector is required");
            set(status, new Condition("ScalingActive", "False", "InvalidSelector",
                    "the HPA target's scale is missing a selector"));
            setStatus(status, current, status.path("desiredReplicas").asInt(0), null, false);
            events.warning(hpa, "FailedComputeMetricsReplicas", "selector is required");
            return;
        }
        List<JsonNode> metrics = new ArrayList<>();
        hpa.path("spec").path("metrics").forEach(metrics::add);
        String firstError = null;
        Condition first = null;
        ArrayNode statuses = Json.NODES.arrayNode();
        for (JsonNode metric : metrics) {
            statuses.addObject().put("type", "");
            String[] failure = failure(metric);
            events.warning(hpa, failure[0], failure[1]);
            if (first == null) {
                first = new Condition("ScalingActive", "False", failure[0],
                        "the HPA was unable to compute the replica count: " + failure[1]);
                firstError = failure[1];
            }
        }
        if (first != null) {
            set(status, first);
        }
        setStatus(status, current, status.path("desiredReplicas").asInt(0), statuses, false);
        events.warning(hpa, "FailedComputeMetricsReplicas", "invalid metrics (%d invalid out of %d), first error is: %s"
                .formatted(metrics.size(), metrics.size(), firstError));
    }

    /** The reason and error kube's metrics clients give for one metric when no metrics API is served. */
    static String[] failure(JsonNode metric) {
        String type = metric.path("type").asText();
        return switch (type) {
            case "Resource", "ContainerResource" -> {
                JsonNode source = metric.path(type.equals("Resource") ? "resource" : "containerResource");
                String name = source.path("name").asText();
                String what = source.path("target").hasNonNull("averageValue") ? "usage" : "utilization";
                yield new String[] {type.equals("Resource") ? "FailedGetResourceMetric"
                        : "FailedGetContainerResourceMetric", "failed to get %s %s: unable to get metrics for resource %s: %s"
                        .formatted(name, what, name, NO_RESOURCE_METRICS)};
            }
            case "Pods" -> new String[] {"FailedGetPodsMetric", "unable to get metric %s: unable to fetch metrics "
                    .formatted(metric.path("pods").path("metric").path("name").asText())
                    + "from custom metrics API: " + NO_CUSTOM_METRICS};
            case "Object" -> new String[] {"FailedGetObjectMetric", "unable to get metric %s: unable to fetch metrics "
                    .formatted(metric.path("object").path("metric").path("name").asText())
                    + "from custom metrics API: " + NO_CUSTOM_METRICS};
            default -> new String[] {"FailedGetExternalMetric", "unable to get external metric %s/%s/%s: unable to "
                    .formatted("", metric.path("external").path("metric").path("name").asText(), "")
                    + "fetch metrics from external metrics API: " + NO_CUSTOM_METRICS};
        };
    }

    /** {@code setStatus}: in kube's field order; {@code lastScaleTime} moves on a rescale only. */
    private void setStatus(ObjectNode status, int current, int desired, ArrayNode metrics, boolean rescaled) {
        JsonNode conditions = status.path("conditions");
        JsonNode lastScale = status.path("lastScaleTime");
        JsonNode observed = status.path("observedGeneration");
        status.removeAll();
        if (!observed.isMissingNode()) {
            status.set("observedGeneration", observed);
        }
        if (rescaled) {
            status.put("lastScaleTime", ObjectMeta.format(clock.instant()));
        } else if (!lastScale.isMissingNode() && !lastScale.isNull()) {
            status.set("lastScaleTime", lastScale);
        }
        if (current != 0) {
            status.put("currentReplicas", current);
        }
        status.put("desiredReplicas", desired);
        if (metrics != null && !metrics.isEmpty()) {
            status.set("currentMetrics", metrics);
        }
        if (conditions.isArray()) {
            status.set("conditions", conditions);
        }
    }

    /** kube's {@code setConditionInList}: a new type is appended; the transition time moves with the status. */
    private void set(ObjectNode status, Condition c) {
        ArrayNode conditions = status.withArray("conditions");
        ObjectNode existing = null;
        for (JsonNode node : conditions) {
            if (node.path("type").asText().equals(c.type())) {
                existing = (ObjectNode) node;
                break;
            }
        }
        if (existing == null) {
            existing = conditions.addObject();
            existing.put("type", c.type());
        }
        if (!existing.path("status").asText().equals(c.status())) {
            existing.put("lastTransitionTime", ObjectMeta.format(clock.instant()));
        }
        ObjectNode ordered = Json.object();
        ordered.put("type", c.type());
        ordered.put("status", c.status());
        ordered.set("lastTransitionTime", existing.get("lastTransitionTime"));
        ordered.put("reason", c.reason());
        ordered.put("message", c.message());
        existing.removeAll();
        existing.setAll(ordered);
    }

    private void writeIfChanged(ObjectNode hpa, JsonNode original) {
        if (!hpa.path("status").equals(original)) {
            hpas.update(hpa, "status");
        }
    }

    /** The scale of the target, its kind mapped to a resource by discovery as kube's RESTMapper does. */
    private ObjectNode scaleOf(String namespace, JsonNode target) {
        return resourceOf(target).get(namespace, target.path("name").asText(), "scale");
    }

    private ResourceClient resourceOf(JsonNode target) {
        String apiVersion = target.path("apiVersion").asText("");
        String kind = target.path("kind").asText("");
        String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
        for (JsonNode r : client.discovery(apiVersion).map(d -> d.path("resources")).orElse(Json.NODES.arrayNode())) {
            if (r.path("kind").asText().equals(kind) && !r.path("name").asText().contains("/")) {
                return client.resource(group, apiVersion.substring(apiVersion.indexOf('/') + 1), r.path("name").asText());
            }
        }
        throw new IllegalArgumentException("no matches for kind \"%s\" in group \"%s\"".formatted(kind, group));
    }
}

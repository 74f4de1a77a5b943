package io.kapi.apis.conversion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.apis.groups.BuiltinBehaviours;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.conversion.Converter;
import io.kapi.machinery.resource.ResourceTable;
import io.kapi.registry.Defaulter;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * autoscaling/v1 ↔ v2 HorizontalPodAutoscalers, with the cases of kube's
 * {@code pkg/apis/autoscaling/v1/conversion_test.go} and the round trips of
 * {@code pkg/apis/autoscaling/v2/conversion_test.go} (v2 → v1 → JSON → v1 → v2 gives the v2 object back).
 */
class HpaV1ConversionTest {

    /** The conversion alone, without the storage version's defaults, as kube's tests exercise it. */
    private static final Converter PURE = new HpaV1Conversion(Defaulter.NONE);
    /** What the server uses: converted, then given autoscaling/v2's defaults. */
    private static final Converter SERVED = new BuiltinBehaviours().forResource(
            ResourceTable.builtin().find("autoscaling", "v1", "horizontalpodautoscalers").orElseThrow(),
            ResourceTable.builtin().facts(ResourceTable.builtin().find("autoscaling", "v1", "horizontalpodautoscalers")
                    .orElseThrow())).converter();

    private static final String BASE = """
            apiVersion: autoscaling/v2
            kind: HorizontalPodAutoscaler
            metadata: {name: h, namespace: default}
            spec:
              scaleTargetRef: {kind: Deployment, name: my-deployment, apiVersion: apps/v1}
              minReplicas: 1
              maxReplicas: 3
            status: {desiredReplicas: 0}
            """;

    private static ObjectNode v2(String metricsYaml) {
        ObjectNode hpa = Yaml.of(BASE);
        if (metricsYaml != null) {
            ((ObjectNode) hpa.get("spec")).set("metrics", Yaml.of("m: " + metricsYaml).get("m"));
        }
        return hpa;
    }

    private static void assertRoundTrip(ObjectNode v2) {
        ObjectNode v1 = PURE.fromStorage(v2);
        assertEquals("autoscaling/v1", v1.path("apiVersion").asText());
        ObjectNode back = PURE.toStorage(Yaml.wire(v1));
        assertEquals(v2, back, "v1 form: " + v1.toPrettyString());
    }

    @Test
    @DisplayName("kube #101370: the CPU target is the first cpu metric with a utilization, after an average-value one")
    void cpuAverageValueAndUtilization() {
        ObjectNode v1 = PURE.fromStorage(v2("""
                [{type: Resource, resource: {name: cpu, target: {type: AverageValue, averageValue: 300m}}},
                 {type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 70}}}]"""));
        assertEquals(Yaml.of("{scaleTargetRef: {kind: Deployment, name: my-deployment, apiVersion: apps/v1}, "
                + "minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: 70}"), v1.get("spec"));
        JsonNode others = Json.NODES.textNode(annotation(v1, HpaAnnotations.METRICS));
        assertEquals("[{\"type\":\"Resource\",\"resource\":{\"name\":\"cpu\",\"targetAverageValue\":\"300m\"}}]",
                others.asText());
    }

    @Test
    @DisplayName("kube: without metrics v1 has no CPU target; with only a CPU utilization it has that one and no annotation")
    void withoutMetricsAndCpuOnly() {
        ObjectNode none = PURE.fromStorage(v2("[]"));
        assertFalse(none.path("spec").has("targetCPUUtilizationPercentage"));
        assertFalse(none.path("metadata").has("annotations"));
        ObjectNode cpu = PURE.fromStorage(v2(
                "[{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 60}}}]"));
        assertEquals(60, cpu.path("spec").path("targetCPUUtilizationPercentage").asInt());
        assertFalse(cpu.path("metadata").has("annotations"));
        assertEquals(Yaml.of("{currentReplicas: 0, desiredReplicas: 0}"), cpu.get("status"));
    }

    @Test
    @DisplayName("a v1 CPU target becomes v2's cpu Utilization metric; no target at all becomes kube's 80%")
    void targetToMetric() {
        ObjectNode v1 = Yaml.of("""
                apiVersion: autoscaling/v1
                kind: HorizontalPodAutoscaler
                metadata: {name: h}
                spec: {scaleTargetRef: {kind: Deployment, name: web}, maxReplicas: 5, targetCPUUtilizationPercentage: 50}
                """);
        ObjectNode stored = PURE.toStorage(v1);
        assertEquals("autoscaling/v2", stored.path("apiVersion").asText());
        assertEquals(Yaml.node("[{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}}]"),
                stored.path("spec").get("metrics"));
        ((ObjectNode) v1.get("spec")).remove("targetCPUUtilizationPercentage");
        assertEquals(80, PURE.toStorage(v1).path("spec").path("metrics").get(0).path("resource").path("target")
                .path("averageUtilization").asInt());
    }

    @Test
    @DisplayName("metrics of the annotation come first, the CPU target last; with annotation metrics no 80% is added")
    void annotationMetrics() {
        ObjectNode v1 = Yaml.of("""
                apiVersion: autoscaling/v1
                kind: HorizontalPodAutoscaler
                metadata:
                  name: h
                  annotations:
                    keep: me
                    autoscaling.alpha.kubernetes.io/metrics: '[{"type":"Resource","resource":{"name":"memory","targetAverageUtilization":60}}]'
                spec: {scaleTargetRef: {kind: Deployment, name: web}, maxReplicas: 5, targetCPUUtilizationPercentage: 50}
                """);
        ObjectNode stored = PURE.toStorage(v1);
        ArrayNode metrics = (ArrayNode) stored.path("spec").get("metrics");
        assertEquals(List.of("memory", "cpu"), Stream.of(metrics.get(0), metrics.get(1))
                .map(m -> m.path("resource").path("name").asText()).toList());
        assertEquals(Yaml.of("{keep: me}"), stored.path("metadata").get("annotations"));
        ((ObjectNode) v1.get("spec")).remove("targetCPUUtilizationPercentage");
        assertEquals(1, PURE.toStorage(v1).path("spec").path("metrics").size());
    }

    static Stream<Arguments> metricRoundTrips() {
        return Stream.of(
                Arguments.of("Pods AverageValue", "{type: Pods, pods: {metric: {name: http_requests_per_second}, "
                        + "target: {type: AverageValue, averageValue: 1k}}}"),
                Arguments.of("Object AverageValue", "{type: Object, object: {describedObject: {kind: Deployment, "
                        + "name: my-deployment, apiVersion: apps/v1}, target: {type: AverageValue, value: '0', "
                        + "averageValue: '100'}, metric: {name: requests-per-second}}}"),
                Arguments.of("Object Value", "{type: Object, object: {describedObject: {kind: Deployment, "
                        + "name: my-deployment, apiVersion: apps/v1}, target: {type: Value, value: '200'}, "
                        + "metric: {name: errors-per-second}}}"),
                Arguments.of("External AverageValue", "{type: External, external: {metric: {name: queue_depth, "
                        + "selector: {}}, target: {type: AverageValue, averageValue: '50'}}}"),
                Arguments.of("External Value", "{type: External, external: {metric: {name: queue_length, "
                        + "selector: {}}, target: {type: Value, value: '30'}}}"),
                Arguments.of("ContainerResource CPU Utilization", "{type: ContainerResource, containerResource: "
                        + "{name: cpu, target: {type: Utilization, averageUtilization: 60}, container: app}}"),
                Arguments.of("ContainerResource CPU AverageValue", "{type: ContainerResource, containerResource: "
                        + "{name: cpu, target: {type: AverageValue, averageValue: 250m}, container: app}}"),
                Arguments.of("ContainerResource Memory Utilization", "{type: ContainerResource, containerResource: "
                        + "{name: memory, target: {type: Utilization, averageUtilization: 70}, container: app}}"),
                Arguments.of("ContainerResource Memory AverageValue", "{type: ContainerResource, containerResource: "
                        + "{name: memory, target: {type: AverageValue, averageValue: 128Mi}, container: app}}"),
                Arguments.of("Resource Memory Utilization", "{type: Resource, resource: {name: memory, "
                        + "target: {type: Utilization, averageUtilization: 80}}}"),
                Arguments.of("Resource Memory AverageValue", "{type: Resource, resource: {name: memory, "
                        + "target: {type: AverageValue, averageValue: 256Mi}}}"),
                Arguments.of("Resource CPU AverageValue", "{type: Resource, resource: {name: cpu, "
                        + "target: {type: AverageValue, averageValue: 500m}}}"),
                // a CPU utilization target goes through v1's own field and comes back last: it is last here
                Arguments.of("Resource CPU Utilization", "{type: Resource, resource: {name: cpu, "
                        + "target: {type: Utilization, averageUtilization: 75}}}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("metricRoundTrips")
    @DisplayName("kube TestMetricSpec_RoundTrip_V2V1: each metric source survives v2 → v1 → v2")
    void metricRoundTrip(String name, String metric) {
        assertRoundTrip(v2("[" + metric + "]"));
    }

    @Test
    @DisplayName("kube TestMetricSpec_RoundTrip_V2V1: all metric sources in one HPA survive v2 → v1 → v2, in order")
    void combinedMetricsRoundTrip() {
        String all = String.join(", ", metricRoundTrips().map(a -> (String) a.get()[1]).toList());
        assertRoundTrip(v2("[" + all + "]"));
    }

    @Test
    @DisplayName("kube TestCPUMetricHoistedToEnd_RoundTrip_V2V1: a leading CPU utilization comes back at the end")
    void cpuHoistedToEnd() {
        ObjectNode back = PURE.toStorage(Yaml.wire(PURE.fromStorage(v2("""
                [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 80}}},
                 {type: External, external: {metric: {name: queue_length}, target: {type: Value, value: '30'}}}]"""))));
        assertEquals(List.of("External", "Resource"), Stream.of(back.path("spec").path("metrics").get(0),
                back.path("spec").path("metrics").get(1)).map(m -> m.path("type").asText()).toList());
    }

    static Stream<Arguments> behaviors() {
        return Stream.of(
                Arguments.of("empty", null),
                Arguments.of("single pods policy with stabilization window",
                        "{stabilizationWindowSeconds: 300, policies: [{type: Pods, value: 2, periodSeconds: 60}]}"),
                Arguments.of("select policy min with multiple policies", "{selectPolicy: Min, stabilizationWindowSeconds: 0, "
                        + "policies: [{type: Percent, value: 100, periodSeconds: 30}, {type: Pods, value: 4, periodSeconds: 30}]}"),
                Arguments.of("select policy max with multiple policies", "{selectPolicy: Max, stabilizationWindowSeconds: 0, "
                        + "policies: [{type: Percent, value: 100, periodSeconds: 30}, {type: Pods, value: 4, periodSeconds: 30}]}"),
                Arguments.of("select policy disabled",
                        "{selectPolicy: Disabled, policies: [{type: Percent, value: 100, periodSeconds: 60}]}"),
                Arguments.of("tolerance", "{tolerance: 50m, policies: [{type: Percent, value: 100, periodSeconds: 60}]}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("behaviors")
    @DisplayName("kube TestHorizontalPodAutoscalerBehavior_RoundTrip_V2V1: scale up, down and both survive v2 → v1 → v2")
    void behaviorRoundTrip(String name, String rules) {
        for (String behavior : List.of("{scaleUp: R}", "{scaleDown: R}", "{scaleUp: R, scaleDown: R}")) {
            ObjectNode hpa = v2("[{type: Resource, resource: {name: memory, target: {type: Utilization, averageUtilization: 80}}}]");
            ObjectNode parsed = Yaml.of("b: " + behavior.replace("R", rules == null ? "null" : rules));
            ObjectNode b = (ObjectNode) parsed.get("b");
            b.properties().removeIf(e -> e.getValue().isNull());
            ((ObjectNode) hpa.get("spec")).set("behavior", b);
            if (b.isEmpty()) {
                // kube moves only a non-empty behavior back from the annotation
                ObjectNode back = PURE.toStorage(Yaml.wire(PURE.fromStorage(hpa)));
                assertFalse(back.path("spec").has("behavior"));
                continue;
            }
            assertRoundTrip(hpa);
        }
    }

    @Test
    @DisplayName("the behavior annotation is kube's internal type as Go marshals it: Go field names, nil as null")
    void behaviorAnnotationShape() {
        ObjectNode hpa = v2("[{type: Resource, resource: {name: memory, target: {type: Utilization, averageUtilization: 80}}}]");
        ((ObjectNode) hpa.get("spec")).set("behavior", Yaml.of(
                "{scaleDown: {stabilizationWindowSeconds: 60, policies: [{type: Pods, value: 1, periodSeconds: 15}]}}"));
        assertEquals("{\"ScaleUp\":null,\"ScaleDown\":{\"StabilizationWindowSeconds\":60,\"SelectPolicy\":null,"
                        + "\"Policies\":[{\"Type\":\"Pods\",\"Value\":1,\"PeriodSeconds\":15}],\"Tolerance\":null}}",
                annotation(PURE.fromStorage(hpa), HpaAnnotations.BEHAVIOR));
        ObjectNode v1 = PURE.fromStorage(hpa);
        ((ObjectNode) v1.path("metadata").get("annotations")).put(HpaAnnotations.BEHAVIOR,
                "{\"scaleup\":{\"selectpolicy\":\"Min\"}}");
        assertEquals(Yaml.of("{scaleUp: {selectPolicy: Min}}"), PURE.toStorage(v1).path("spec").get("behavior"));
        ((ObjectNode) v1.path("metadata").get("annotations")).put(HpaAnnotations.BEHAVIOR, "not json");
        assertFalse(PURE.toStorage(v1).path("spec").has("behavior"), "a malformed behavior is ignored");
    }

    @Test
    @DisplayName("kube TestStatuses_RoundTrip_V2V1: replicas, generation, scale time, current metrics and conditions")
    void statusRoundTrip() {
        ObjectNode hpa = v2("[{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}}]");
        hpa.set("status", Yaml.of("""
                observedGeneration: 7
                lastScaleTime: '2025-01-01T00:00:00Z'
                currentReplicas: 2
                desiredReplicas: 3
                currentMetrics:
                - {type: Pods, pods: {metric: {name: http_requests_per_second}, current: {averageValue: '123'}}}
                - {type: External, external: {metric: {name: queue_length}, current: {value: '42'}}}
                - type: Object
                  object: {metric: {name: requests-per-second}, current: {value: '0', averageValue: '0'},
                           describedObject: {kind: Deployment, name: my-deployment, apiVersion: apps/v1}}
                - type: Object
                  object: {metric: {name: requests-per-minute}, current: {value: '0'},
                           describedObject: {kind: Deployment, name: my-deployment, apiVersion: apps/v1}}
                - {type: ContainerResource, containerResource: {name: memory, current: {averageValue: 256Mi}, container: app}}
                - {type: Resource, resource: {name: cpu, current: {averageValue: '0', averageUtilization: 40}}}
                conditions:
                - {type: ScalingActive, status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z', reason: ScalingActive,
                   message: Scaling metrics available}
                - {type: AbleToScale, status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z', reason: ReadyForNewScale,
                   message: recommended size matches current size}
                """));
        ObjectNode v1 = PURE.fromStorage(hpa);
        assertEquals(Yaml.of("{observedGeneration: 7, lastScaleTime: '2025-01-01T00:00:00Z', currentReplicas: 2, "
                + "desiredReplicas: 3, currentCPUUtilizationPercentage: 40}"), v1.get("status"));
        assertRoundTrip(hpa);
    }

    @Test
    @DisplayName("v1's current CPU utilization becomes a current metric; the annotation's metrics, richer, win")
    void currentCpuUtilization() {
        ObjectNode v1 = Yaml.of("""
                apiVersion: autoscaling/v1
                kind: HorizontalPodAutoscaler
                metadata: {name: h}
                spec: {scaleTargetRef: {kind: Deployment, name: web}, maxReplicas: 5}
                status: {currentReplicas: 1, desiredReplicas: 1, currentCPUUtilizationPercentage: 33}
                """);
        assertEquals(Yaml.node("[{type: Resource, resource: {name: cpu, current: {averageUtilization: 33}}}]"),
                PURE.toStorage(v1).path("status").get("currentMetrics"));
        v1.with("metadata").putObject("annotations").put(HpaAnnotations.CURRENT_METRICS,
                "[{\"type\":\"Resource\",\"resource\":{\"name\":\"cpu\",\"currentAverageUtilization\":44,"
                        + "\"currentAverageValue\":\"120m\"}}]");
        assertEquals(Yaml.node("[{type: Resource, resource: {name: cpu, current: {averageValue: 120m, averageUtilization: 44}}}]"),
                PURE.toStorage(v1).path("status").get("currentMetrics"));
    }

    @Test
    @DisplayName("round-trip annotations never reach storage, and stale ones are replaced on the way to v1")
    void roundTripAnnotationsDropped() {
        ObjectNode stored = v2("[{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}}]");
        stored.with("metadata").putObject("annotations").put(HpaAnnotations.METRICS, "[stale]").put("mine", "1");
        ObjectNode v1 = PURE.fromStorage(stored);
        assertEquals(Yaml.of("{mine: '1'}"), v1.path("metadata").get("annotations"));
        ObjectNode v2 = new BuiltinBehaviours().forResource(
                ResourceTable.builtin().find("autoscaling", "v2", "horizontalpodautoscalers").orElseThrow(),
                ResourceTable.builtin().facts(ResourceTable.builtin().find("autoscaling", "v2", "horizontalpodautoscalers")
                        .orElseThrow())).converter().toStorage(stored);
        assertEquals(Yaml.of("{mine: '1'}"), v2.path("metadata").get("annotations"));
        stored.with("metadata").remove("annotations");
        stored.with("metadata").putObject("annotations").put(HpaAnnotations.CONDITIONS, "[]");
        assertFalse(PURE.fromStorage(stored).path("metadata").has("annotations"), "an emptied map goes");
    }

    @Test
    @DisplayName("a metrics annotation that is not a JSON list is a 400, as a body kube cannot decode")
    void malformedAnnotation() {
        ObjectNode v1 = Yaml.of("""
                apiVersion: autoscaling/v1
                kind: HorizontalPodAutoscaler
                metadata: {name: h, annotations: {autoscaling.alpha.kubernetes.io/metrics: '{"type":"Pods"}'}}
                spec: {scaleTargetRef: {kind: Deployment, name: web}, maxReplicas: 5}
                """);
        ApiException e = assertThrows(ApiException.class, () -> PURE.toStorage(v1));
        assertEquals(400, e.code());
        assertTrue(e.getMessage().contains("cannot unmarshal object into Go value of type []v1.MetricSpec"), e.getMessage());
    }

    @Test
    @DisplayName("the server's conversion gives the object autoscaling/v2's defaults; neither direction changes its argument")
    void defaultsAndPurity() {
        ObjectNode v1 = Yaml.of("""
                apiVersion: autoscaling/v1
                kind: HorizontalPodAutoscaler
                metadata:
                  name: h
                  annotations: {autoscaling.alpha.kubernetes.io/behavior: '{"ScaleUp":{"StabilizationWindowSeconds":10}}'}
                spec: {scaleTargetRef: {kind: Deployment, name: web}, maxReplicas: 5}
                """);
        ObjectNode before = v1.deepCopy();
        ObjectNode stored = SERVED.toStorage(v1);
        assertEquals(before, v1);
        assertEquals(Yaml.of("""
                scaleUp:
                  stabilizationWindowSeconds: 10
                  selectPolicy: Max
                  policies: [{type: Pods, value: 4, periodSeconds: 15}, {type: Percent, value: 100, periodSeconds: 15}]
                scaleDown:
                  selectPolicy: Max
                  policies: [{type: Percent, value: 100, periodSeconds: 15}]
                """), stored.path("spec").get("behavior"));
        assertEquals(1, stored.path("spec").path("minReplicas").asInt());
        ObjectNode storedBefore = stored.deepCopy();
        ObjectNode read = SERVED.fromStorage(stored);
        assertEquals(storedBefore, stored);
        assertNotSame(stored.get("metadata"), read.get("metadata"));
        assertNull(read.path("spec").get("metrics"));
    }

    private static String annotation(JsonNode object, String key) {
        return object.path("metadata").path("annotations").path(key).asText(null);
    }
}

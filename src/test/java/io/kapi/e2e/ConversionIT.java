package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Resources served in two versions, with the real kubectl: HPAs of autoscaling/v1 and v2, core and events.k8s.io Events. */
@DisplayName("conversion between served versions")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class ConversionIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension();

    static final String NS = "e2e-conversion";

    private static final String HPA_V1 = """
            apiVersion: autoscaling/v1
            kind: HorizontalPodAutoscaler
            metadata:
              name: web-v1
            spec:
              scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
              minReplicas: 1
              maxReplicas: 5
              targetCPUUtilizationPercentage: 50
            """;

    private static final String HPA_V2 = """
            apiVersion: autoscaling/v2
            kind: HorizontalPodAutoscaler
            metadata:
              name: web-v2
            spec:
              scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
              maxReplicas: 4
              metrics:
              - type: Resource
                resource: {name: memory, target: {type: Utilization, averageUtilization: 60}}
              - type: Resource
                resource: {name: cpu, target: {type: Utilization, averageUtilization: 70}}
            """;

    @BeforeAll
    static void objects() {
        Kubectl k = KAPI.kubectl();
        k.runWithInput(Manifests.namespace(NS), "create", "-f", "-").assertOk();
        k.runWithInput(HPA_V1, "create", "-n", NS, "-f", "-").assertOk();
        k.runWithInput(HPA_V2, "create", "-n", NS, "-f", "-").assertOk();
    }

    private static Kubectl.Result kubectl(String... args) {
        return KAPI.kubectl().run(args);
    }

    private static JsonNode yaml(Kubectl.Result r) {
        try {
            return Json.yaml().readTree(r.assertOk().stdout());
        } catch (IOException e) {
            throw new AssertionError("not YAML: " + r, e);
        }
    }

    @Test
    @DisplayName("created through v1 with a 50% CPU target, get hpa.v2.autoscaling -o yaml shows averageUtilization: 50")
    void v1ReadThroughV2() {
        JsonNode hpa = yaml(kubectl("get", "hpa.v2.autoscaling", "web-v1", "-n", NS, "-o", "yaml"));
        assertEquals("autoscaling/v2", hpa.path("apiVersion").asText());
        JsonNode metric = hpa.path("spec").path("metrics").get(0);
        assertEquals("Resource", metric.path("type").asText(), hpa.toString());
        assertEquals("cpu", metric.path("resource").path("name").asText());
        assertEquals(50, metric.path("resource").path("target").path("averageUtilization").asInt(), hpa.toString());
    }

    @Test
    @DisplayName("created through v2, get hpa.v1.autoscaling -o yaml shows the CPU target and the memory metric's annotation")
    void v2ReadThroughV1() {
        // kubectl keeps the version of a full resource name only: hpa.v1.autoscaling would read v2
        JsonNode hpa = yaml(kubectl("get", "horizontalpodautoscalers.v1.autoscaling", "web-v2", "-n", NS, "-o", "yaml"));
        assertEquals("autoscaling/v1", hpa.path("apiVersion").asText());
        assertEquals(70, hpa.path("spec").path("targetCPUUtilizationPercentage").asInt(), hpa.toString());
        String others = hpa.path("metadata").path("annotations").path("autoscaling.alpha.kubernetes.io/metrics").asText();
        assertTrue(others.contains("\"name\":\"memory\"") && others.contains("\"targetAverageUtilization\":60"), others);
    }

    @Test
    @DisplayName("get hpa prints both with their targets, through either version")
    void table() {
        for (String resource : List.of("hpa", "horizontalpodautoscalers.v1.autoscaling")) {
            Kubectl.Result r = kubectl("get", resource, "-n", NS).assertOk();
            List<String> lines = r.stdout().strip().lines().toList();
            assertTrue(lines.get(0).matches("NAME\\s+REFERENCE\\s+TARGETS\\s+MINPODS\\s+MAXPODS\\s+REPLICAS\\s+AGE"), r.toString());
            assertTrue(lines.stream().anyMatch(l -> l.matches("web-v1\\s+Deployment/web\\s+cpu: <unknown>/50%\\s+1\\s+5\\s+0\\s+.*")),
                    r.toString());
            // kube prints the internal object, whatever the version: v1 shows every metric too
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("web-v2 ")
                    && l.contains("memory: <unknown>/60%, cpu: <unknown>/70%")), r.toString());
        }
    }

    @Test
    @DisplayName("apply --server-side of a v1 manifest conflicts with the v2 creator on the metrics; forced, v2 shows the new target")
    void serverSideApplyThroughV1() {
        String applied = HPA_V2.replace("autoscaling/v2", "autoscaling/v1").replace("""
                  metrics:
                  - type: Resource
                    resource: {name: memory, target: {type: Utilization, averageUtilization: 60}}
                  - type: Resource
                    resource: {name: cpu, target: {type: Utilization, averageUtilization: 70}}
                """, "  targetCPUUtilizationPercentage: 85\n");
        Kubectl.Result conflict = KAPI.kubectl().runWithInput(applied, "apply", "--server-side", "-n", NS, "-f", "-");
        assertNotEquals(0, conflict.exitCode(), conflict.toString());
        assertTrue(conflict.stderr().contains("conflict") && conflict.stderr().contains(".spec.metrics"), conflict.toString());
        KAPI.kubectl().runWithInput(applied, "apply", "--server-side", "--force-conflicts", "-n", NS, "-f", "-").assertOk();
        assertEquals("85", kubectl("get", "hpa.v2.autoscaling", "web-v2", "-n", NS, "-o",
                "jsonpath={.spec.metrics[?(@.resource.name==\"cpu\")].resource.target.averageUtilization}").assertOk().stdout());
        assertEquals("autoscaling/v1", kubectl("get", "hpa.v2.autoscaling", "web-v2", "-n", NS, "--show-managed-fields", "-o",
                "jsonpath={.metadata.managedFields[?(@.manager==\"kubectl\")].apiVersion}").assertOk().stdout());
    }

    @Test
    @DisplayName("an Event created through events.k8s.io is a core Event, and the reverse")
    void events() {
        String newEvent = """
                apiVersion: events.k8s.io/v1
                kind: Event
                metadata: {name: ev-new}
                eventTime: "2026-01-01T00:00:00.000000Z"
                reportingController: example.com/e2e
                reportingInstance: e2e-1
                action: Testing
                reason: Tested
                type: Normal
                regarding: {kind: HorizontalPodAutoscaler, namespace: e2e-conversion, name: web-v1}
                note: created through events.k8s.io
                """;
        KAPI.kubectl().runWithInput(newEvent, "create", "-n", NS, "-f", "-").assertOk();
        assertEquals("web-v1 created through events.k8s.io", kubectl("get", "events.v1.", "ev-new", "-n", NS, "-o",
                "jsonpath={.involvedObject.name} {.message}").assertOk().stdout());
        Kubectl.Result core = kubectl("get", "events", "-n", NS, "--field-selector", "involvedObject.name=web-v1").assertOk();
        assertTrue(core.stdout().contains("created through events.k8s.io"), core.toString());
        Kubectl.Result grouped = kubectl("get", "events.events.k8s.io", "-n", NS, "--field-selector", "regarding.name=web-v1",
                "-o", "name").assertOk();
        assertEquals("event.events.k8s.io/ev-new", grouped.stdout().strip());
        Kubectl.Result table = kubectl("get", "events.events.k8s.io", "-n", NS).assertOk();
        assertTrue(table.stdout().lines().anyMatch(l -> l.contains("Tested") && l.contains("horizontalpodautoscaler/web-v1")
                && l.contains("created through events.k8s.io")), table.toString());
    }
}

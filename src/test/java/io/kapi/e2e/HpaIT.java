package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kapi.fixtures.Await;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The horizontal pod autoscaler ({@code --controllers=*}, under RBAC) without a metrics API, with kubectl: the
 * target's scale read, minReplicas enforced, then the conditions and events kube shows when no metrics exist.
 * Kube's HPA controller handles each HPA once per 15 s period, so this test waits through two of them.
 */
@DisplayName("horizontal pod autoscaler controller without metrics")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class HpaIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--controllers=*", "--authorization-mode=Node,RBAC");

    static final Await WAIT = Await.atMost(Duration.ofSeconds(50)).every(Duration.ofMillis(250));
    private static final String NS = "e2e-hpa";

    @BeforeAll
    static void namespace() {
        kubectl("create", "namespace", NS).assertOk();
    }

    static Kubectl.Result kubectl(String... args) {
        return KAPI.kubectl().run(args);
    }

    static String get(String what, String jsonpath) {
        return KAPI.kubectl().jsonpath(NS, what, jsonpath);
    }

    static String condition(String hpa, String type) {
        String c = "{.status.conditions[?(@.type==\"" + type + "\")]";
        return get("hpa/" + hpa, c + ".status}/" + c + ".reason}/" + c + ".message}");
    }

    @Test
    @DisplayName("kubectl autoscale: scaled up to minReplicas, then ScalingActive False FailedGetResourceMetric as kube says")
    void noMetrics() {
        kubectl("create", "deployment", "web", "-n", NS, "--image=nginx", "--replicas=1").assertOk();
        kubectl("autoscale", "deployment", "web", "-n", NS, "--min=2", "--max=5", "--cpu-percent=50").assertOk();
        WAIT.until("scaled to minReplicas", () -> get("deployment/web", "{.spec.replicas}").equals("2"));
        String message = "failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch "
                + "metrics from resource metrics API: the server could not find the requested resource "
                + "(get pods.metrics.k8s.io)";
        WAIT.until("metrics unavailable", () -> condition("web", "ScalingActive")
                .equals("False/FailedGetResourceMetric/the HPA was unable to compute the replica count: " + message));
        assertEquals("True/SucceededGetScale/the HPA controller was able to get the target's current scale",
                condition("web", "AbleToScale"));
        assertEquals("2/2/", get("hpa/web", "{.status.currentReplicas}/{.status.desiredReplicas}/"
                + "{.status.currentMetrics[0].type}"));
        assertEquals(false, get("hpa/web", "{.status.lastScaleTime}").isEmpty());
        String events = kubectl("get", "events", "-n", NS, "--field-selector", "involvedObject.kind=HorizontalPodAutoscaler",
                "-o", "jsonpath={range .items[*]}{.type} {.reason} {.source.component}: {.message}{\"\\n\"}{end}")
                .assertOk().stdout();
        for (String line : new String[] {
                "Normal SuccessfulRescale horizontal-pod-autoscaler: New size: 2; reason: Current number of replicas "
                        + "below Spec.MinReplicas",
                "Warning FailedGetResourceMetric horizontal-pod-autoscaler: " + message,
                "Warning FailedComputeMetricsReplicas horizontal-pod-autoscaler: invalid metrics (1 invalid out of 1), "
                        + "first error is: " + message}) {
            assertEquals(true, events.contains(line + "\n"), line + " in\n" + events);
        }
    }

    @Test
    @DisplayName("a target that does not exist: AbleToScale False FailedGetScale with the error")
    void missingTarget() {
        KAPI.kubectl().runWithInput("""
                {"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"ghost"},\
                "spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"ghost"},"minReplicas":1,\
                "maxReplicas":3,"metrics":[{"type":"Resource","resource":{"name":"memory","target":\
                {"type":"AverageValue","averageValue":"100Mi"}}}]}}""", "create", "-n", NS, "-f", "-").assertOk();
        WAIT.until("FailedGetScale", () -> condition("ghost", "AbleToScale").equals("False/FailedGetScale/the HPA "
                + "controller was unable to get the target's current scale: deployments.apps \"ghost\" not found"));
    }
}

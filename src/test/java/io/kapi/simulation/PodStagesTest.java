package io.kapi.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The simulated kubelet's phases and conditions, from a Pod and the time, without a server. */
final class PodStagesTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final PodStages STAGES = new PodStages(SimulationConfig.NONE);
    private static final PodStages.Placement AT = new PodStages.Placement("172.18.0.2", "10.244.0.2");

    static ObjectNode pod(String json) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static ObjectNode pod(String annotations, String spec) {
        return pod("""
                {"metadata":{"name":"p","namespace":"ns","uid":"u1","generation":1,"annotations":{%s}},
                 "spec":{"nodeName":"n",%s"containers":[{"name":"a","image":"nginx"},{"name":"b","image":"x/y:1"}]},
                 "status":{"phase":"Pending","conditions":[{"type":"PodScheduled","status":"True"}]}}"""
                .formatted(annotations, spec));
    }

    /** The Pod with {@code step}'s status applied, as the merge patch does. */
    static ObjectNode apply(ObjectNode pod, PodStages.Step step) {
        ObjectNode next = pod.deepCopy();
        next.set("status", step.status());
        return next;
    }

    static String conditions(JsonNode status) {
        StringBuilder b = new StringBuilder();
        for (JsonNode c : status.path("conditions")) {
            b.append(c.path("type").asText()).append('=').append(c.path("status").asText());
            if (c.has("reason")) {
                b.append('/').append(c.path("reason").asText());
            }
            b.append(' ');
        }
        return b.toString().strip();
    }

    @Test
    @DisplayName("a new Pod starts Running and Ready at once, with kubelet's conditions in kubelet's order")
    void starts() {
        PodStages.Step step = STAGES.next(pod("", ""), AT, T0);
        JsonNode s = step.status();
        assertEquals("Running", s.path("phase").asText());
        assertEquals("PodReadyToStartContainers=True Initialized=True Ready=True ContainersReady=True PodScheduled=True",
                conditions(s));
        assertEquals("10.244.0.2", s.path("podIP").asText());
        assertEquals("2026-01-01T00:00:00Z", s.path("startTime").asText());
        JsonNode a = s.path("containerStatuses").get(0);
        assertEquals("docker.io/library/nginx:latest", a.path("image").asText());
        assertEquals("docker.io/x/y:1", s.path("containerStatuses").get(1).path("image").asText());
        assertTrue(a.path("containerID").asText().matches("containerd://[0-9a-f]{64}"));
        assertTrue(a.path("imageID").asText().startsWith("docker.io/library/nginx@sha256:"));
        assertEquals("2026-01-01T00:00:00Z", a.path("state").path("running").path("startedAt").asText());
        assertTrue(a.path("ready").asBoolean() && a.path("started").asBoolean());
        assertNull(step.recheckAt());
        assertFalse(step.delete());
    }

    @Test
    @DisplayName("a running Pod that nothing changes is left as it is")
    void steady() {
        ObjectNode running = apply(pod("", ""), STAGES.next(pod("", ""), AT, T0));
        PodStages.Step again = STAGES.next(running, AT, T0.plusSeconds(60));
        assertTrue(Trees.covers(running.path("status"), again.status()));
    }

    @Test
    @DisplayName("simulate-ready false: containers run but the Pod is not Ready, worded as kubelet's")
    void neverReady() {
        JsonNode s = STAGES.next(pod("\"kapi.dev/simulate-ready\":\"false\"", ""), AT, T0).status();
        assertEquals("PodReadyToStartContainers=True Initialized=True Ready=False/ContainersNotReady "
                + "ContainersReady=False/ContainersNotReady PodScheduled=True", conditions(s));
        assertEquals("containers with unready status: [a b]", s.path("conditions").get(2).path("message").asText());
    }

    @Test
    @DisplayName("readiness gates: Ready only once every gate's condition is True; others' conditions come first")
    void readinessGates() {
        ObjectNode p = pod("", "\"readinessGates\":[{\"conditionType\":\"x/gate\"}],");
        JsonNode s = STAGES.next(p, AT, T0).status();
        JsonNode ready = s.path("conditions").get(2);
        assertEquals("False ReadinessGatesNotReady corresponding condition of pod readiness gate \"x/gate\" does not "
                + "exist.", ready.path("status").asText() + " " + ready.path("reason").asText() + " "
                + ready.path("message").asText());
        ObjectNode running = apply(p, STAGES.next(p, AT, T0));
        ((ObjectNode) running.path("status")).withArray("conditions").insertObject(0)
                .put("type", "x/gate").put("status", "False");
        ready = STAGES.next(running, AT, T0).status().path("conditions").get(3);
        assertEquals("the status of pod readiness gate \"x/gate\" is not \"True\", but False",
                ready.path("message").asText());
        ((ObjectNode) running.path("status").path("conditions").get(0)).put("status", "True");
        JsonNode after = STAGES.next(running, AT, T0.plusSeconds(5)).status();
        assertEquals("x/gate=True PodReadyToStartContainers=True Initialized=True Ready=True ContainersReady=True "
                + "PodScheduled=True", conditions(after));
        assertEquals("2026-01-01T00:00:05Z", after.path("conditions").get(3).path("lastTransitionTime").asText());
        assertEquals("2026-01-01T00:00:00Z", after.path("conditions").get(2).path("lastTransitionTime").asText());
    }

    @Test
    @DisplayName("run-for with restartPolicy Never: the containers exit 0 Completed and the Pod Succeeds")
    void succeeds() {
        ObjectNode p = pod("\"kapi.dev/simulate-run-for\":\"2s\"", "\"restartPolicy\":\"Never\",");
        PodStages.Step start = STAGES.next(p, AT, T0);
        assertEquals(T0.plusSeconds(2), start.recheckAt());
        ObjectNode running = apply(p, start);
        assertEquals("Running", STAGES.next(running, AT, T0.plusSeconds(1)).status().path("phase").asText());
        JsonNode s = STAGES.next(running, AT, T0.plusSeconds(2)).status();
        assertEquals("Succeeded", s.path("phase").asText());
        JsonNode t = s.path("containerStatuses").get(0).path("state").path("terminated");
        assertEquals("0 Completed 2026-01-01T00:00:02Z", t.path("exitCode").asText() + " " + t.path("reason").asText()
                + " " + t.path("finishedAt").asText());
        assertEquals("PodReadyToStartContainers=False Initialized=True/PodCompleted Ready=False/PodCompleted "
                + "ContainersReady=False/PodCompleted PodScheduled=True", conditions(s));
    }

    @Test
    @DisplayName("a Job's Pod finishes after the configured default; a Deployment's runs on")
    void jobDefault() {
        ObjectNode job = pod("""
                {"metadata":{"name":"p","namespace":"ns","uid":"u1","ownerReferences":[{"kind":"Job","name":"j",
                 "controller":true}]},"spec":{"restartPolicy":"OnFailure","containers":[{"name":"a","image":"i"}]}}""");
        assertEquals(T0.plusSeconds(1), STAGES.next(job, AT, T0).recheckAt());
        assertNull(STAGES.next(pod("", ""), AT, T0).recheckAt());
    }

    @Test
    @DisplayName("exit code 1 with restartPolicy Never: the Pod Fails with Error")
    void fails() {
        ObjectNode p = pod("\"kapi.dev/simulate-run-for\":\"1s\",\"kapi.dev/simulate-exit-code\":\"1\"",
                "\"restartPolicy\":\"Never\",");
        JsonNode s = STAGES.next(apply(p, STAGES.next(p, AT, T0)), AT, T0.plusSeconds(1)).status();
        assertEquals("Failed", s.path("phase").asText());
        assertEquals("Error", s.path("containerStatuses").get(0).path("state").path("terminated").path("reason").asText());
        assertEquals("Ready=False/PodFailed", conditions(s).split(" ")[2]);
    }

    @Test
    @DisplayName("exit code 1 with restartPolicy Always: restarted at once, then CrashLoopBackOff of 10 s, 20 s …")
    void crashLoop() {
        ObjectNode p = pod("\"kapi.dev/simulate-run-for\":\"1s\",\"kapi.dev/simulate-exit-code\":\"1\"", "");
        ObjectNode pod = apply(p, STAGES.next(p, AT, T0));
        pod = apply(pod, STAGES.next(pod, AT, T0.plusSeconds(1)));
        JsonNode a = pod.path("status").path("containerStatuses").get(0);
        assertEquals(1, a.path("restartCount").asInt());
        assertTrue(a.path("state").has("running"));
        assertEquals(1, a.path("lastState").path("terminated").path("exitCode").asInt());
        PodStages.Step crash = STAGES.next(pod, AT, T0.plusSeconds(2));
        pod = apply(pod, crash);
        a = pod.path("status").path("containerStatuses").get(0);
        assertEquals("CrashLoopBackOff", a.path("state").path("waiting").path("reason").asText());
        assertEquals("back-off 10s restarting failed container=a pod=p_ns(u1)",
                a.path("state").path("waiting").path("message").asText());
        assertEquals("Running", pod.path("status").path("phase").asText());
        assertEquals(T0.plusSeconds(12), crash.recheckAt());
        assertEquals("Ready=False/ContainersNotReady", conditions(pod.path("status")).split(" ")[2]);
        pod = apply(pod, STAGES.next(pod, AT, T0.plusSeconds(12)));
        a = pod.path("status").path("containerStatuses").get(0);
        assertEquals(2, a.path("restartCount").asInt());
        assertTrue(a.path("state").has("running"));
        assertEquals(Duration.ofSeconds(20), STAGES.backoff(2));
        assertEquals(PodStages.MAX_BACKOFF, STAGES.backoff(10));
    }

    @Test
    @DisplayName("init containers complete before the containers run; a sidecar keeps running")
    void initContainers() {
        ObjectNode p = pod("""
                {"metadata":{"name":"p","namespace":"ns","uid":"u1"},"spec":{"initContainers":[{"name":"i",
                 "image":"busybox"},{"name":"side","image":"envoy","restartPolicy":"Always"}],
                 "containers":[{"name":"a","image":"i"}]}}""");
        JsonNode s = STAGES.next(p, AT, T0).status();
        JsonNode init = s.path("initContainerStatuses");
        assertEquals("Completed", init.get(0).path("state").path("terminated").path("reason").asText());
        assertTrue(init.get(1).path("state").has("running"));
        assertEquals("PodReadyToStartContainers=True Initialized=True Ready=True ContainersReady=True PodScheduled=True",
                conditions(s));
    }

    @Test
    @DisplayName("a deleted Pod stops after the stop delay or its grace period, whichever is shorter, then goes")
    void gracefulDeletion() {
        ObjectNode running = apply(pod("", ""), STAGES.next(pod("", ""), AT, T0));
        ObjectNode meta = (ObjectNode) running.path("metadata");
        meta.put("deletionTimestamp", "2026-01-01T00:01:30Z");
        meta.put("deletionGracePeriodSeconds", 30);
        PodStages.Step wait = STAGES.next(running, AT, Instant.parse("2026-01-01T00:01:00Z"));
        assertNull(wait.status());
        assertEquals(Instant.parse("2026-01-01T00:01:00.500Z"), wait.recheckAt());
        PodStages.Step stop = STAGES.next(running, AT, Instant.parse("2026-01-01T00:01:01Z"));
        assertTrue(stop.delete());
        assertEquals("Succeeded", stop.status().path("phase").asText());
        assertEquals(0, stop.status().path("containerStatuses").get(1).path("state").path("terminated")
                .path("exitCode").asInt());
        meta.put("deletionGracePeriodSeconds", 0);
        meta.put("deletionTimestamp", "2026-01-01T00:01:00Z");
        assertTrue(STAGES.next(running, AT, Instant.parse("2026-01-01T00:01:00Z")).delete());
    }

    @Test
    @DisplayName("containerd's image names")
    void images() {
        assertEquals("docker.io/library/nginx:1.27", Containers.image("nginx:1.27"));
        assertEquals("registry.k8s.io/pause:3.10", Containers.image("registry.k8s.io/pause:3.10"));
        assertEquals("localhost:5000/app:latest", Containers.image("localhost:5000/app"));
        assertEquals("docker.io/library/busybox@sha256:ab", Containers.image("busybox@sha256:ab"));
    }
}

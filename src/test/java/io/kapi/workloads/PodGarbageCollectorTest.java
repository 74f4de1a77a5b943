package io.kapi.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.fixtures.Await;
import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import io.kapi.informers.SharedInformers;
import io.kapi.user.SystemUsers;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The pod garbage collector's passes against the API in memory, each pass run by the test. */
class PodGarbageCollectorTest {

    private static final String PODS = "/api/v1/namespaces/default/pods";
    private static final Await WAIT = Await.atMost(Duration.ofSeconds(10)).every(Duration.ofMillis(20));

    @InMemoryApi
    private ApiHarness api;
    private SharedInformers informers;

    @BeforeEach
    void setUp() throws InterruptedException {
        informers = new SharedInformers(api.assembly().registry()::store);
        informers.start();
    }

    @AfterEach
    void tearDown() {
        informers.close();
    }

    private PodGarbageCollector collector(int threshold, Duration quarantine) throws InterruptedException {
        PodGarbageCollector gc = new PodGarbageCollector(api.assembly().loopback().as(
                SystemUsers.controller("pod-garbage-collector"), "kube-controller-manager"), informers,
                Clock.systemUTC(), threshold, quarantine);
        informers.start();
        assertTrue(informers.awaitSynced(Duration.ofSeconds(10)));
        return gc;
    }

    private void pod(String name, String node, String phase, String created) {
        ApiHarness.Reply r = api.post(PODS, """
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s"},"spec":{%s"containers":[{"name":"c",\
                "image":"nginx"}]}}""".formatted(name, node == null ? "" : "\"nodeName\":\"" + node + "\","));
        assertEquals(201, r.code(), r.text());
        if (phase != null) {
            r = api.patch(PODS + "/" + name + "/status", "application/merge-patch+json",
                    "{\"status\":{\"phase\":\"" + phase + "\"}}");
            assertEquals(200, r.code(), r.text());
        }
    }

    private boolean exists(String name) {
        return api.get(PODS + "/" + name).code() == 200;
    }

    private void awaitSeen(String... names) {
        WAIT.until("the informer has the pods", () -> {
            for (String n : names) {
                if (informers.informer(ReplicaSetController.PODS).get("default", n).isEmpty()) {
                    return false;
                }
            }
            return true;
        });
    }

    @Test
    @DisplayName("beyond the threshold, the oldest terminated Pods go, evicted first; running ones stay")
    void terminatedBeyondThreshold() throws Exception {
        PodGarbageCollector gc = collector(2, PodGarbageCollector.QUARANTINE);
        pod("done-1", null, "Succeeded", null);
        pod("done-2", null, "Failed", null);
        pod("done-3", null, "Succeeded", null);
        pod("running", null, "Running", null);
        awaitSeen("done-1", "done-2", "done-3", "running");
        WAIT.until("phases seen", () -> informers.informer(ReplicaSetController.PODS).get("default", "done-3")
                .map(p -> p.path("status").path("phase").asText().equals("Succeeded")).orElse(false));
        gc.gc();
        assertEquals(List.of(false, true, true, true), List.of(exists("done-1"), exists("done-2"), exists("done-3"),
                exists("running")), "one over the threshold of 2: the oldest terminated Pod is deleted");
    }

    @Test
    @DisplayName("a Pod bound to a missing Node goes after the quarantine, marked Failed with DisruptionTarget first")
    void orphaned() throws Exception {
        PodGarbageCollector gc = collector(0, Duration.ofMillis(300));
        assertEquals(201, api.post("/api/v1/nodes", "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"here\"}}").code());
        pod("orphan", "gone", null, null);
        pod("bound", "here", null, null);
        awaitSeen("orphan", "bound");
        WAIT.until("node seen", () -> informers.informer(new io.kapi.machinery.GroupVersionResource("", "v1", "nodes"))
                .get("", "here").isPresent());
        assertEquals(200, api.patch(PODS + "/orphan", "application/merge-patch+json",
                "{\"metadata\":{\"finalizers\":[\"example.com/hold\"]}}").code());
        gc.gc();
        assertTrue(api.get(PODS + "/orphan").body().at("/metadata/deletionTimestamp").isMissingNode(),
                "quarantined first");
        Thread.sleep(400);
        gc.gc();
        JsonNode pod = api.get(PODS + "/orphan").body();
        assertTrue(pod.at("/metadata/deletionTimestamp").isTextual(), "deleted after the quarantine");
        assertEquals("Failed", pod.at("/status/phase").asText());
        JsonNode condition = pod.at("/status/conditions/0");
        assertEquals("DisruptionTarget/True/DeletionByPodGC/PodGC: node no longer exists",
                condition.path("type").asText() + "/" + condition.path("status").asText() + "/"
                        + condition.path("reason").asText() + "/" + condition.path("message").asText());
        assertTrue(api.get(PODS + "/bound").body().at("/metadata/deletionTimestamp").isMissingNode());
    }

    @Test
    @DisplayName("a terminating Pod never scheduled is deleted at once")
    void unscheduledTerminating() throws Exception {
        PodGarbageCollector gc = collector(0, PodGarbageCollector.QUARANTINE);
        pod("held", null, null, null);
        assertEquals(200, api.patch(PODS + "/held", "application/merge-patch+json",
                "{\"metadata\":{\"finalizers\":[\"example.com/hold\"]}}").code());
        assertEquals(200, api.delete(PODS + "/held").code());
        WAIT.until("terminating seen", () -> informers.informer(ReplicaSetController.PODS).get("default", "held")
                .map(Pods::terminating).orElse(false));
        gc.gc();
        JsonNode pod = api.get(PODS + "/held").body();
        assertEquals("Failed", pod.at("/status/phase").asText(), "marked Failed by PodGC's apply");
        assertTrue(pod.at("/metadata/managedFields").toString().contains("\"manager\":\"PodGC\""), pod.toString());
    }
}

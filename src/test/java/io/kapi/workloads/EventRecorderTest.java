package io.kapi.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.fixtures.Await;
import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import io.kapi.machinery.Json;
import io.kapi.user.SystemUsers;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class EventRecorderTest {

    private static final String EVENTS = "/api/v1/namespaces/default/events";

    @InMemoryApi
    private ApiHarness api;

    @Test
    @DisplayName("the same event again raises the first one's count (a patch, under the controller's RBAC); another message is a new Event")
    void correlated() throws Exception {
        EventRecorder recorder = new EventRecorder(api.assembly().loopback().as(
                SystemUsers.controller("horizontal-pod-autoscaler"), "kube-controller-manager")
                .resource("", "v1", "events"), "horizontal-pod-autoscaler", Clock.systemUTC());
        ObjectNode about = (ObjectNode) Json.MAPPER.readTree("""
                {"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"web",\
                "namespace":"default","uid":"u-1","resourceVersion":"7"}}""");
        recorder.warning(about, "FailedGetScale", "boom");
        Await.atMost(Duration.ofSeconds(10)).until("first event", () -> api.get(EVENTS).body().path("items").size() == 1);
        recorder.warning(about, "FailedGetScale", "boom");
        recorder.warning(about, "FailedGetScale", "boom");
        Await.atMost(Duration.ofSeconds(10)).until("count 3", () -> api.get(EVENTS).body().at("/items/0/count").asInt() == 3);
        recorder.warning(about, "FailedGetScale", "another");
        Await.atMost(Duration.ofSeconds(10)).until("a second event", () -> api.get(EVENTS).body().path("items").size() == 2);
        JsonNode first = api.get(EVENTS).body().path("items").path(0);
        assertEquals("boom", first.path("message").asText());
        assertEquals(3, first.path("count").asInt());
    }
}

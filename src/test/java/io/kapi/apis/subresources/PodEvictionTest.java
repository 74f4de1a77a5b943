package io.kapi.apis.subresources;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.harness.InMemoryApi;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PodEvictionTest {

    @InMemoryApi
    private static Api api;

    @BeforeAll
    static void setUp() {
        api.create("/api/v1/namespaces", """
                {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"ev"}}""");
    }

    private static String path(String ns) {
        return "/api/v1/namespaces/" + ns + "/pods";
    }

    /** A running, ready pod labelled app=web. */
    private static void runningPod(String ns, String name) {
        api.create(path(ns), """
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","labels":{"app":"web"}},
                 "spec":{"containers":[{"name":"c","image":"nginx"}]}}""".formatted(name));
        JsonNode pod = api.get(path(ns) + "/" + name).body();
        ObjectNode status = ((ObjectNode) pod).putObject("status");
        status.put("phase", "Running");
        status.putArray("conditions").addObject().put("type", "Ready").put("status", "True");
        Api.Reply reply = api.put(path(ns) + "/" + name + "/status", pod.toString());
        assertEquals(200, reply.code(), reply.text());
    }

    private static void budget(String ns, String name, int allowed) {
        api.create("/apis/policy/v1/namespaces/" + ns + "/poddisruptionbudgets", """
                {"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"%s"},
                 "spec":{"minAvailable":1,"selector":{"matchLabels":{"app":"web"}}}}""".formatted(name));
        String url = "/apis/policy/v1/namespaces/" + ns + "/poddisruptionbudgets/" + name;
        ObjectNode pdb = (ObjectNode) api.get(url).body();
        pdb.putObject("status").put("disruptionsAllowed", allowed).put("currentHealthy", 1).put("desiredHealthy", 1)
                .put("expectedPods", 1).put("observedGeneration", pdb.path("metadata").path("generation").asLong());
        Api.Reply reply = api.put(url + "/status", pdb.toString());
        assertEquals(200, reply.code(), reply.text());
    }

    private static Api.Reply evict(String ns, String name) {
        return api.post(path(ns) + "/" + name + "/eviction", """
                {"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"%s"}}""".formatted(name));
    }

    @Test
    @DisplayName("a budget with no disruption left refuses with 429 and kube-apiserver's cause")
    void refused() {
        api.create("/api/v1/namespaces", """
                {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"ev1"}}""");
        runningPod("ev1", "p");
        budget("ev1", "pdb", 0);
        Api.Reply reply = evict("ev1", "p");
        assertEquals(429, reply.code(), reply.text());
        assertEquals("TooManyRequests", reply.body().path("reason").asText());
        assertEquals(PodEviction.VIOLATION, reply.body().path("message").asText());
        JsonNode cause = reply.body().path("details").path("causes").path(0);
        assertEquals("DisruptionBudget", cause.path("reason").asText());
        assertEquals("The disruption budget pdb needs 1 healthy pods and has 1 currently", cause.path("message").asText());
        assertEquals(200, api.get(path("ev1") + "/p").code());
    }

    @Test
    @DisplayName("a budget that allows it loses one disruption and the pod is deleted with 201 Success")
    void allowed() {
        api.create("/api/v1/namespaces", """
                {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"ev2"}}""");
        runningPod("ev2", "p");
        budget("ev2", "pdb", 1);
        Api.Reply reply = evict("ev2", "p");
        assertEquals(201, reply.code(), reply.text());
        assertEquals("Success", reply.body().path("status").asText());
        assertEquals(404, api.get(path("ev2") + "/p").code());
        JsonNode pdb = api.get("/apis/policy/v1/namespaces/ev2/poddisruptionbudgets/pdb").body();
        assertEquals(0, pdb.path("status").path("disruptionsAllowed").asInt());
        assertTrue(pdb.path("status").path("disruptedPods").has("p"));
        assertEquals("InsufficientPods", pdb.path("status").path("conditions").path(0).path("reason").asText());
    }

    @Test
    @DisplayName("an evicted pod is marked DisruptionTarget (EvictionByEvictionAPI) before it is deleted")
    void disruptionTarget() {
        api.create("/api/v1/namespaces", """
                {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"ev4"}}""");
        runningPod("ev4", "p");
        // a finalizer keeps the deleted pod readable
        JsonNode pod = api.get(path("ev4") + "/p").body();
        ((ObjectNode) pod.path("metadata")).putArray("finalizers").add("example.com/hold");
        assertEquals(200, api.put(path("ev4") + "/p", pod.toString()).code());
        assertEquals(201, evict("ev4", "p").code());
        JsonNode evicted = api.get(path("ev4") + "/p").body();
        assertTrue(evicted.path("metadata").has("deletionTimestamp"), evicted.toString());
        JsonNode condition = null;
        for (JsonNode c : evicted.path("status").path("conditions")) {
            if (c.path("type").asText().equals("DisruptionTarget")) {
                condition = c;
            }
        }
        assertTrue(condition != null, evicted.toString());
        assertEquals("True/EvictionByEvictionAPI/Eviction API: evicting", condition.path("status").asText() + "/"
                + condition.path("reason").asText() + "/" + condition.path("message").asText());
    }

    @Test
    @DisplayName("two budgets selecting the pod give kube-apiserver's 500 Failure Status")
    void twoBudgets() {
        api.create("/api/v1/namespaces", """
                {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"ev3"}}""");
        runningPod("ev3", "p");
        budget("ev3", "a", 1);
        budget("ev3", "b", 1);
        Api.Reply reply = evict("ev3", "p");
        assertEquals(500, reply.code());
        assertEquals("This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
                reply.body().path("message").asText());
    }

    @Test
    @DisplayName("a pending pod is deleted without looking at budgets; a missing pod is 404")
    void pendingAndMissing() {
        api.create(path("ev"), """
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"pending","labels":{"app":"web"}},
                 "spec":{"containers":[{"name":"c","image":"nginx"}]}}""");
        budget("ev", "zero", 0);
        assertEquals(201, evict("ev", "pending").code());
        Api.Reply missing = evict("ev", "nope");
        assertEquals(404, missing.code());
        assertEquals("pods \"nope\" not found", missing.body().path("message").asText());
    }
}

package io.kapi.apis.subresources;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.harness.InMemoryApi;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PodBindingTest {

    private static final String PODS = "/api/v1/namespaces/default/pods";

    @InMemoryApi
    private static Api api;
    private static int next;
    /** A fresh unbound pod for each test. */
    private String p;

    @BeforeEach
    void setUp() {
        p = "p" + next++;
        api.create(PODS, pod(p));
    }

    static String pod(String name) {
        return """
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s"},
                 "spec":{"containers":[{"name":"c","image":"nginx"}]}}""".formatted(name);
    }

    private static String binding(String pod, String node) {
        return """
                {"apiVersion":"v1","kind":"Binding","metadata":{"name":"%s","annotations":{"a":"b"}},
                 "target":{"kind":"Node","name":"%s"}}""".formatted(pod, node);
    }

    @Test
    @DisplayName("binding sets the node once, answers 201 Success and marks the pod scheduled")
    void binds() {
        Api.Reply reply = api.post(PODS + "/" + p + "/binding", binding(p, "n1"));
        assertEquals(201, reply.code(), reply.text());
        assertEquals("Success", reply.body().path("status").asText());
        assertEquals(201, reply.body().path("code").asInt());
        JsonNode pod = api.get(PODS + "/" + p).body();
        assertEquals("n1", pod.path("spec").path("nodeName").asText());
        assertEquals("b", pod.path("metadata").path("annotations").path("a").asText());
        JsonNode scheduled = null;
        for (JsonNode c : pod.path("status").path("conditions")) {
            if (c.path("type").asText().equals("PodScheduled")) {
                scheduled = c;
            }
        }
        assertEquals("True", scheduled.path("status").asText());
    }

    @Test
    @DisplayName("binding a bound pod is a 409 worded as kube-apiserver")
    void alreadyBound() {
        api.post(PODS + "/" + p + "/binding", binding(p, "n1"));
        Api.Reply reply = api.post(PODS + "/" + p + "/binding", binding(p, "n2"));
        assertEquals(409, reply.code());
        assertEquals("Conflict", reply.body().path("reason").asText());
        assertEquals("Operation cannot be fulfilled on pods/binding \"" + p + "\": pod " + p + " is already assigned to node \"n1\"",
                reply.body().path("message").asText());
    }

    @Test
    @DisplayName("the legacy bindings resource binds by the body's name; a missing pod is 404")
    void legacy() {
        Api.Reply reply = api.post("/api/v1/namespaces/default/bindings", binding(p, "n1"));
        assertEquals(201, reply.code(), reply.text());
        assertEquals("n1", api.get(PODS + "/" + p).body().path("spec").path("nodeName").asText());
        Api.Reply missing = api.post("/api/v1/namespaces/default/bindings", binding("nope", "n1"));
        assertEquals(404, missing.code());
        assertEquals("pods \"nope\" not found", missing.body().path("message").asText());
    }

    @Test
    @DisplayName("a target that is not a Node and a name differing from the URL are refused")
    void refused() {
        Api.Reply kind = api.post(PODS + "/" + p + "/binding", """
                {"apiVersion":"v1","kind":"Binding","metadata":{"name":"%s"},"target":{"kind":"Pod","name":"x"}}""".formatted(p));
        assertEquals(422, kind.code(), "kube answers 500; the mistake is the client's");
        assertEquals("Binding \"" + p + "\" is invalid: target.kind: Unsupported value: \"Pod\": supported values: "
                + "\"Node\", \"<empty>\"", kind.body().path("message").asText());
        Api.Reply name = api.post(PODS + "/" + p + "/binding", binding("q", "n1"));
        assertEquals(400, name.code());
        assertEquals("name in URL does not match name in Binding object", name.body().path("message").asText());
    }
}

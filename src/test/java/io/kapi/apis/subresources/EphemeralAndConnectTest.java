package io.kapi.apis.subresources;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.harness.InMemoryApi;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class EphemeralAndConnectTest {

    private static final String PODS = "/api/v1/namespaces/default/pods";

    @InMemoryApi
    private static Api api;

    @BeforeAll
    static void setUp() {
        api.create(PODS, PodBindingTest.pod("eph"));
        api.create(PODS, PodBindingTest.pod("unscheduled"));
        api.create(PODS, PodBindingTest.pod("scheduled"));
        api.post(PODS + "/scheduled/binding", """
                {"apiVersion":"v1","kind":"Binding","metadata":{"name":"scheduled"},"target":{"name":"n1"}}""");
    }

    @Test
    @DisplayName("ephemeral containers are added through the subresource; other changes are dropped")
    void addsEphemeral() {
        ObjectNode pod = (ObjectNode) api.get(PODS + "/eph").body();
        pod.with("spec").withArray("ephemeralContainers").addObject().put("name", "debugger").put("image", "busybox");
        pod.with("spec").withArray("containers").path(0);
        ((ObjectNode) pod.with("spec").withArray("containers").get(0)).put("image", "changed");
        Api.Reply reply = api.put(PODS + "/eph/ephemeralcontainers", pod.toString());
        assertEquals(200, reply.code(), reply.text());
        JsonNode stored = api.get(PODS + "/eph").body();
        assertEquals("debugger", stored.path("spec").path("ephemeralContainers").path(0).path("name").asText());
        assertEquals("nginx", stored.path("spec").path("containers").path(0).path("image").asText());
        ObjectNode again = (ObjectNode) stored.deepCopy();
        ((ObjectNode) again.with("spec").withArray("ephemeralContainers").get(0)).put("image", "alpine");
        Api.Reply changed = api.put(PODS + "/eph/ephemeralcontainers", again.toString());
        assertEquals(422, changed.code());
        assertEquals("Pod \"eph\" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers "
                + "\"debugger\" may not be changed\n", changed.body().path("message").asText());
        ObjectNode clash = (ObjectNode) api.get(PODS + "/eph").body();
        clash.with("spec").withArray("ephemeralContainers").addObject().put("name", "c").put("image", "busybox");
        Api.Reply duplicate = api.put(PODS + "/eph/ephemeralcontainers", clash.toString());
        assertEquals(422, duplicate.code());
        assertEquals("Pod \"eph\" is invalid: spec.ephemeralContainers[1].name: Duplicate value: \"c\"",
                duplicate.body().path("message").asText());
    }

    @Test
    @DisplayName("logs of an unscheduled pod are empty and exec is 400 'does not have a host assigned', as kube")
    void unscheduled() {
        Api.Reply logs = api.get(PODS + "/unscheduled/log");
        assertEquals(200, logs.code());
        assertEquals("", logs.text());
        Api.Reply exec = api.call("POST", PODS + "/unscheduled/exec?command=ls", null, "");
        assertEquals(400, exec.code());
        assertEquals("pod unscheduled does not have a host assigned", exec.body().path("message").asText());
        Api.Reply badContainer = api.get(PODS + "/unscheduled/log?container=zz");
        assertEquals(400, badContainer.code());
        assertEquals("container zz is not valid for pod unscheduled", badContainer.body().path("message").asText());
    }

    @Test
    @DisplayName("a scheduled pod's logs, a node proxy and a service proxy answer 503 at once, never 500")
    void noKubelet() {
        Api.Reply logs = api.get(PODS + "/scheduled/log");
        assertEquals(503, logs.code());
        assertEquals("error dialing backend: no kubelet is connected to this server for node \"n1\"",
                logs.body().path("message").asText());
        api.create("/api/v1/nodes", """
                {"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"}}""");
        assertEquals(503, api.get("/api/v1/nodes/n1/proxy/metrics").code());
        assertEquals(404, api.get("/api/v1/nodes/n2/proxy/").code());
        api.create("/api/v1/namespaces/default/services", """
                {"apiVersion":"v1","kind":"Service","metadata":{"name":"web"},
                 "spec":{"ports":[{"port":80}],"selector":{"app":"web"}}}""");
        Api.Reply svc = api.get("/api/v1/namespaces/default/services/web:80/proxy/index.html");
        assertEquals(503, svc.code());
        assertEquals("no endpoints available for service \"web\"", svc.body().path("message").asText());
        Api.Reply podProxy = api.get(PODS + "/unscheduled/proxy/");
        assertEquals(400, podProxy.code());
        assertEquals("address not allowed", podProxy.body().path("message").asText());
    }
}

package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.fixtures.Await;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The endpoints and endpointslice controllers ({@code --controllers=*}, under RBAC) with the real kubectl:
 * a Service's Pods appear once they have an IP, as ready addresses only once Ready; named target ports
 * resolved on the Pod; kube's labels and annotation.
 */
@DisplayName("endpoints and endpointslice controllers")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class ServiceEndpointsIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--controllers=*", "--authorization-mode=Node,RBAC");

    private static final Await WAIT = Await.atMost(Duration.ofSeconds(30)).every(Duration.ofMillis(100));
    private static final String NS = "e2e-endpoints";

    @BeforeAll
    static void namespace() {
        kubectl("create", "namespace", NS).assertOk();
    }

    private static Kubectl.Result kubectl(String... args) {
        return KAPI.kubectl().runIn(NS, args);
    }

    private static void create(String json) {
        KAPI.kubectl().runWithInput(json, "create", "-n", NS, "-f", "-").assertOk();
    }

    private static void pod(String name, String app) {
        create("""
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","labels":{"app":"%s"}},"spec":{"containers":\
                [{"name":"c","image":"nginx","ports":[{"name":"http","containerPort":8080}]}]}}""".formatted(name, app));
    }

    private static void status(String pod, String ip, boolean ready) {
        kubectl("patch", "pod", pod, "--subresource=status", "--type=merge", "-p", """
                {"status":{"phase":"Running","podIP":"%s","podIPs":[{"ip":"%s"}],"conditions":[{"type":"Ready",\
                "status":"%s","lastTransitionTime":"2026-01-01T00:00:00Z"}]}}""".formatted(ip, ip, ready ? "True" : "False"))
                .assertOk();
    }

    private static JsonNode endpoints(String name) {
        return kubectl("get", "endpoints", name, "-o", "json").assertOk().json();
    }

    private static JsonNode slices(String service) {
        return kubectl("get", "endpointslices", "-l", "kubernetes.io/service-name=" + service, "-o", "json")
                .assertOk().json().path("items");
    }

    @Test
    @DisplayName("no address before a Pod has an IP; notReadyAddresses while not Ready; addresses once Ready")
    void readiness() throws InterruptedException {
        pod("web-1", "web");
        create("""
                {"apiVersion":"v1","kind":"Service","metadata":{"name":"web","labels":{"team":"a"}},"spec":\
                {"selector":{"app":"web"},"ports":[{"name":"http","port":80,"targetPort":"http"}]}}""");
        WAIT.until("the Endpoints", () -> kubectl("get", "endpoints", "web").exitCode() == 0);
        JsonNode ep = endpoints("web");
        assertTrue(ep.path("subsets").isMissingNode() || ep.path("subsets").isEmpty(), ep.toString());
        assertEquals("endpoint-controller", ep.path("metadata").path("labels").path("endpoints.kubernetes.io/managed-by").asText());
        assertEquals("a", ep.path("metadata").path("labels").path("team").asText());
        assertTrue(ep.path("metadata").path("annotations").has("endpoints.kubernetes.io/last-change-trigger-time"));
        WAIT.until("a placeholder slice", () -> slices("web").size() == 1);
        JsonNode placeholder = slices("web").get(0);
        assertEquals(0, placeholder.path("endpoints").size());
        assertEquals("endpointslice-controller.k8s.io",
                placeholder.path("metadata").path("labels").path("endpointslice.kubernetes.io/managed-by").asText());
        assertEquals("Service/web/true", placeholder.path("metadata").path("ownerReferences").get(0).path("kind").asText()
                + "/" + placeholder.path("metadata").path("ownerReferences").get(0).path("name").asText()
                + "/" + placeholder.path("metadata").path("ownerReferences").get(0).path("controller").asText());

        status("web-1", "10.244.0.11", false);
        WAIT.until("a not-ready address", () -> endpoints("web").path("subsets").path(0).path("notReadyAddresses")
                .path(0).path("ip").asText().equals("10.244.0.11"));
        assertTrue(endpoints("web").path("subsets").path(0).path("addresses").isMissingNode());
        WAIT.until("a slice endpoint, not ready", () -> slices("web").path(0).path("endpoints").path(0)
                .path("conditions").toString().equals("{\"ready\":false,\"serving\":false,\"terminating\":false}"));

        status("web-1", "10.244.0.11", true);
        WAIT.until("a ready address", () -> endpoints("web").path("subsets").path(0).path("addresses").path(0)
                .path("ip").asText().equals("10.244.0.11"));
        JsonNode subset = endpoints("web").path("subsets").get(0);
        assertEquals("{\"name\":\"http\",\"port\":8080,\"protocol\":\"TCP\"}", subset.path("ports").get(0).toString());
        assertEquals("web-1", subset.path("addresses").get(0).path("targetRef").path("name").asText());
        WAIT.until("a ready slice endpoint", () -> slices("web").path(0).path("endpoints").path(0).path("conditions")
                .path("ready").asBoolean());
        JsonNode slice = slices("web").get(0);
        assertEquals(1, slices("web").size());
        assertEquals("IPv4", slice.path("addressType").asText());
        assertEquals("10.244.0.11", slice.path("endpoints").get(0).path("addresses").get(0).asText());
        assertEquals(8080, slice.path("ports").get(0).path("port").asInt());
        assertTrue(slice.path("metadata").path("name").asText().startsWith("web-"));

        kubectl("delete", "pod", "web-1").assertOk();
        WAIT.until("no address again", () -> endpoints("web").path("subsets").isMissingNode());
        WAIT.until("the placeholder again", () -> slices("web").size() == 1 && slices("web").get(0).path("endpoints").isEmpty());
    }

    @Test
    @DisplayName("a Service without a selector is left to its own Endpoints (mirrored, not computed); a deleted Service's Endpoints go")
    void selectorless() throws InterruptedException {
        create("""
                {"apiVersion":"v1","kind":"Service","metadata":{"name":"manual"},"spec":{"ports":[{"port":80}]}}""");
        create("""
                {"apiVersion":"v1","kind":"Endpoints","metadata":{"name":"manual"},"subsets":[{"addresses":\
                [{"ip":"192.0.2.1"}],"ports":[{"port":80}]}]}""");
        pod("other", "other");
        create("""
                {"apiVersion":"v1","kind":"Service","metadata":{"name":"other"},"spec":{"selector":{"app":"other"},\
                "ports":[{"port":80}]}}""");
        WAIT.until("other's Endpoints", () -> kubectl("get", "endpoints", "other").exitCode() == 0);
        Thread.sleep(500);
        assertEquals("192.0.2.1", endpoints("manual").path("subsets").get(0).path("addresses").get(0).path("ip").asText());
        // the endpointslice controller makes none for it; the mirroring controller (also on) mirrors its Endpoints
        WAIT.until("manual's mirrored slice", () -> slices("manual").size() == 1);
        JsonNode slice = slices("manual").get(0);
        assertEquals("endpointslicemirroring-controller.k8s.io",
                slice.at("/metadata/labels/endpointslice.kubernetes.io~1managed-by").asText());
        assertEquals("192.0.2.1", slice.at("/endpoints/0/addresses/0").asText());
        kubectl("delete", "service", "other").assertOk();
        WAIT.until("other's Endpoints gone", () -> kubectl("get", "endpoints", "other").exitCode() != 0);
        WAIT.until("other's slices gone", () -> slices("other").isEmpty());
    }
}

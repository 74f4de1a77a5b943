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
 * The endpointslice mirroring controller ({@code --controllers=*}, under RBAC) with kubectl: a selectorless
 * Service's Endpoints mirrored into EndpointSlices as kube's, updated and deleted with them; kube's skip rules.
 */
@DisplayName("endpointslice mirroring controller")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class EndpointSliceMirroringIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--controllers=*", "--authorization-mode=Node,RBAC");

    static final Await WAIT = Await.atMost(Duration.ofSeconds(30)).every(Duration.ofMillis(100));
    private static final String NS = "e2e-mirror";

    @BeforeAll
    static void namespace() {
        kubectl("create", "namespace", NS).assertOk();
    }

    static Kubectl.Result kubectl(String... args) {
        return KAPI.kubectl().run(args);
    }

    static void apply(String json) {
        KAPI.kubectl().runWithInput(json, "apply", "-n", NS, "-f", "-").assertOk();
    }

    static String slices(String service, String jsonpath) {
        return kubectl("get", "endpointslices", "-n", NS, "-l", "kubernetes.io/service-name=" + service, "-o",
                "jsonpath=" + jsonpath).assertOk().stdout().strip();
    }

    static void service(String name, String selector) {
        apply("""
                {"apiVersion":"v1","kind":"Service","metadata":{"name":"%s"},"spec":{%s"ports":[{"port":80,\
                "name":"http"}]}}""".formatted(name, selector == null ? "" : "\"selector\":" + selector + ","));
    }

    static void endpoints(String name, String labels, String annotations, String subsets) {
        apply("""
                {"apiVersion":"v1","kind":"Endpoints","metadata":{"name":"%s","labels":%s,"annotations":%s},\
                "subsets":%s}""".formatted(name, labels, annotations, subsets));
    }

    @Test
    @DisplayName("a selectorless Service's Endpoints are mirrored: name, labels, owner, ports, endpoints; then followed")
    void mirrors() {
        service("ext", null);
        endpoints("ext", "{\"team\":\"a\"}", "{\"note\":\"kept\"}", """
                [{"addresses":[{"ip":"10.1.0.2","hostname":"b"},{"ip":"10.1.0.1","nodeName":"n1"}],\
                "notReadyAddresses":[{"ip":"10.1.0.9"}],"ports":[{"name":"http","port":8080,"protocol":"TCP"}]}]""");
        WAIT.until("one slice", () -> !slices("ext", "{.items[*].metadata.name}").isEmpty());
        String uid = kubectl("get", "endpoints", "ext", "-n", NS, "-o", "jsonpath={.metadata.uid}").stdout();
        assertEquals("endpointslicemirroring-controller.k8s.io/ext/a/kept/Endpoints/ext/" + uid + "/true/true/IPv4",
                slices("ext", "{.items[0].metadata.labels.endpointslice\\.kubernetes\\.io/managed-by}/"
                        + "{.items[0].metadata.labels.kubernetes\\.io/service-name}/{.items[0].metadata.labels.team}/"
                        + "{.items[0].metadata.annotations.note}/{.items[0].metadata.ownerReferences[0].kind}/"
                        + "{.items[0].metadata.ownerReferences[0].name}/{.items[0].metadata.ownerReferences[0].uid}/"
                        + "{.items[0].metadata.ownerReferences[0].controller}/"
                        + "{.items[0].metadata.ownerReferences[0].blockOwnerDeletion}/{.items[0].addressType}"));
        assertEquals(true, slices("ext", "{.items[0].metadata.name}").matches("ext-[a-z0-9]{5}"));
        assertEquals("http/TCP/8080", slices("ext", "{.items[0].ports[0].name}/{.items[0].ports[0].protocol}/"
                + "{.items[0].ports[0].port}"));
        assertEquals("10.1.0.1 true n1;10.1.0.2 true b;10.1.0.9 false ;", slices("ext",
                "{range .items[0].endpoints[*]}{.addresses[0]} {.conditions.ready} {.nodeName}{.hostname};{end}"));
        String annotations = slices("ext", "{.items[0].metadata.annotations}");
        assertEquals(false, annotations.contains("last-applied-configuration"), annotations);

        endpoints("ext", "{\"team\":\"a\"}", "{\"note\":\"kept\"}", """
                [{"addresses":[{"ip":"10.1.0.1"},{"ip":"10.1.0.3"}],"ports":[{"name":"http","port":8080}]}]""");
        WAIT.until("followed", () -> slices("ext", "{range .items[*].endpoints[*]}{.addresses[0]} {end}")
                .equals("10.1.0.1 10.1.0.3"));
        kubectl("delete", "endpoints", "ext", "-n", NS).assertOk();
        WAIT.until("slices deleted with the Endpoints", () -> slices("ext", "{.items[*].metadata.name}").isEmpty());
    }

    @Test
    @DisplayName("not mirrored: a Service with a selector, skip-mirror (the apiserver's kubernetes Endpoints), a leader-election lock, no Service")
    void skips() throws InterruptedException {
        service("selected", "{\"app\":\"x\"}");
        service("skipped", null);
        service("leader", null);
        String subsets = "[{\"addresses\":[{\"ip\":\"10.2.0.1\"}],\"ports\":[{\"port\":80}]}]";
        endpoints("skipped", "{\"endpointslice.kubernetes.io/skip-mirror\":\"true\"}", "{}", subsets);
        endpoints("leader", "{}", "{\"control-plane.alpha.kubernetes.io/leader\":\"{}\"}", subsets);
        endpoints("lonely", "{}", "{}", subsets);
        service("control", null);
        endpoints("control", "{}", "{}", subsets);
        WAIT.until("the control is mirrored", () -> !slices("control", "{.items[*].metadata.name}").isEmpty());
        for (String name : new String[] {"skipped", "leader", "lonely"}) {
            assertEquals("", slices(name, "{.items[*].metadata.name}"), name);
        }
        assertEquals("", kubectl("get", "endpointslices", "-n", NS, "-l",
                "endpointslice.kubernetes.io/managed-by=endpointslicemirroring-controller.k8s.io,"
                        + "kubernetes.io/service-name=selected", "-o", "name").stdout().strip());
        assertEquals("", kubectl("get", "endpointslices", "-n", "default", "-l",
                "endpointslice.kubernetes.io/managed-by=endpointslicemirroring-controller.k8s.io", "-o", "name")
                .stdout().strip(), "the kubernetes Service's Endpoints are labelled skip-mirror");
    }

    @Test
    @DisplayName("IPv4 and IPv6 addresses of one subset go to a slice each")
    void invalidAndFamilies() {
        service("mixed", null);
        endpoints("mixed", "{}", "{}", """
                [{"addresses":[{"ip":"10.3.0.1"},{"ip":"fd00::1"}],"ports":[{"port":80}]}]""");
        WAIT.until("two slices", () -> slices("mixed", "{.items[*].addressType}").split(" ").length == 2);
        assertEquals("IPv4 IPv6", String.join(" ", java.util.Arrays.stream(slices("mixed",
                "{.items[*].addressType}").split(" ")).sorted().toList()));
    }
}

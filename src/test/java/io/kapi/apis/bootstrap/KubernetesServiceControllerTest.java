package io.kapi.apis.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.registry.DeleteOptions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import io.kapi.harness.StoreCalls;

class KubernetesServiceControllerTest {

    private final BootstrapFixture fixture = new BootstrapFixture();
    private final MutableClock clock = new MutableClock();
    private final KubernetesServiceController controller = controller("192.168.1.10");

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    @Test
    @DisplayName("first IP of the service range: 10.96.0.1 for 10.96.0.0/12, fd00::1 for IPv6, primary of dual-stack")
    void firstServiceIp() {
        assertEquals("10.96.0.1", NetworkAddresses.firstServiceIp("10.96.0.0/12"));
        assertEquals("10.0.0.1", NetworkAddresses.firstServiceIp("10.0.0.0/24"));
        assertEquals("10.96.0.1", NetworkAddresses.firstServiceIp("10.100.3.4/12"));
        assertEquals("fd00::1", NetworkAddresses.firstServiceIp("fd00::/108"));
        assertEquals("2001:db8::1", NetworkAddresses.firstServiceIp("2001:db8::/64"));
        assertEquals("10.96.0.1", NetworkAddresses.firstServiceIp("10.96.0.0/12,fd00::/108"));
    }

    @Test
    @DisplayName("advertise address: configured wins, 0.0.0.0 picks a non-loopback host IPv4 or 127.0.0.1")
    void advertise() {
        assertEquals("127.0.0.1", NetworkAddresses.advertise("127.0.0.1"));
        assertEquals("10.1.2.3", NetworkAddresses.advertise("10.1.2.3"));
        String picked = NetworkAddresses.advertise("0.0.0.0");
        assertFalse(picked.isEmpty());
        assertFalse(picked.contains(":"));
    }

    @Test
    @DisplayName("creates the kubernetes service, endpoints and endpoint slice as kube-apiserver writes them")
    void createsObjects() {
        assertEquals("bootstrap-controller", controller.name());
        controller.run();
        ObjectNode svc = fixture.get("", "services", "default", "kubernetes");
        assertEquals(json("{\"component\":\"apiserver\",\"provider\":\"kubernetes\"}"), svc.path("metadata").path("labels"));
        assertEquals(json("[{\"name\":\"https\",\"protocol\":\"TCP\",\"port\":443,\"targetPort\":6443}]"),
                svc.path("spec").path("ports"));
        assertEquals("10.96.0.1", svc.path("spec").path("clusterIP").asText());
        assertEquals("ClusterIP", svc.path("spec").path("type").asText());
        assertEquals("None", svc.path("spec").path("sessionAffinity").asText());
        ObjectNode ep = fixture.get("", "endpoints", "default", "kubernetes");
        assertEquals(json("[{\"addresses\":[{\"ip\":\"192.168.1.10\"}],\"ports\":[{\"name\":\"https\",\"port\":6443,\"protocol\":\"TCP\"}]}]"),
                ep.path("subsets"));
        assertEquals("true", ObjectMeta.of(ep).labels().get("endpointslice.kubernetes.io/skip-mirror"));
        ObjectNode slice = fixture.get("discovery.k8s.io", "endpointslices", "default", "kubernetes");
        assertEquals("IPv4", slice.path("addressType").asText());
        assertEquals("kubernetes", ObjectMeta.of(slice).labels().get("kubernetes.io/service-name"));
        assertEquals(json("[{\"addresses\":[\"192.168.1.10\"],\"conditions\":{\"ready\":true}}]"), slice.path("endpoints"));
        assertEquals(json("[{\"name\":\"https\",\"port\":6443,\"protocol\":\"TCP\"}]"), slice.path("ports"));
    }

    @Test
    @DisplayName("running twice writes nothing the second time")
    void idempotent() {
        controller.reconcile();
        String svc = rv("", "services");
        String ep = rv("", "endpoints");
        String slice = rv("discovery.k8s.io", "endpointslices");
        controller.reconcile();
        assertEquals(svc, rv("", "services"));
        assertEquals(ep, rv("", "endpoints"));
        assertEquals(slice, rv("discovery.k8s.io", "endpointslices"));
    }

    @Test
    @DisplayName("edited or deleted endpoints, slice and service ports are repaired on the next reconcile")
    void repairs() {
        controller.reconcile();
        var endpoints = fixture.store("", "endpoints");
        Stores.update(endpoints, "default", "kubernetes", o -> {
            ((ObjectNode) o.path("subsets").path(0).path("addresses").path(0)).put("ip", "10.9.9.9");
            return o;
        });
        fixture.store("discovery.k8s.io", "endpointslices").delete("default", "kubernetes", DeleteOptions.DEFAULT);
        Stores.update(fixture.store("", "services"), "default", "kubernetes", o -> {
            ((ObjectNode) o.path("spec").path("ports").path(0)).put("port", 8443);
            return o;
        });
        controller.reconcile();
        assertEquals("192.168.1.10", fixture.get("", "endpoints", "default", "kubernetes")
                .path("subsets").path(0).path("addresses").path(0).path("ip").asText());
        assertEquals("192.168.1.10", fixture.get("discovery.k8s.io", "endpointslices", "default", "kubernetes")
                .path("endpoints").path(0).path("addresses").path(0).asText());
        assertEquals(443, fixture.get("", "services", "default", "kubernetes").path("spec").path("ports").path(0)
                .path("port").asInt());
    }

    @Test
    @DisplayName("replicas: endpoints list every live server, an expired or removed one drops out")
    void replicas() {
        KubernetesServiceController other = controller("192.168.1.11");
        controller.reconcile();
        other.reconcile();
        controller.reconcile();
        assertEquals(json("[{\"ip\":\"192.168.1.10\"},{\"ip\":\"192.168.1.11\"}]"), addresses());
        assertEquals(2, fixture.get("discovery.k8s.io", "endpointslices", "default", "kubernetes").path("endpoints").size());
        clock.advance(Duration.ofSeconds(16));
        controller.reconcile();
        assertEquals(json("[{\"ip\":\"192.168.1.10\"}]"), addresses(), "the other's lease expired");
        other.reconcile();
        other.removeSelf();
        assertEquals(json("[{\"ip\":\"192.168.1.10\"}]"), addresses());
    }

    @Test
    @DisplayName("a server that advertises another IP family later gets a new slice of that address type")
    void addressTypeChange() {
        controller.reconcile();
        assertEquals("IPv4", fixture.get("discovery.k8s.io", "endpointslices", "default", "kubernetes")
                .path("addressType").asText());
        controller.removeSelf();
        KubernetesServiceController v6 = controller("fd00::10");
        v6.reconcile();
        ObjectNode slice = fixture.get("discovery.k8s.io", "endpointslices", "default", "kubernetes");
        assertEquals("IPv6", slice.path("addressType").asText(), "addressType is immutable: the slice is created again");
        assertEquals("fd00::10", slice.path("endpoints").path(0).path("addresses").path(0).asText());
    }

    private JsonNode addresses() {
        return fixture.get("", "endpoints", "default", "kubernetes").path("subsets").path(0).path("addresses");
    }

    private KubernetesServiceController controller(String ip) {
        return new KubernetesServiceController(fixture.client, new MasterLeases(fixture.storage, clock,
                BootstrapHooks.LEASE_TTL), "10.96.0.1", ip, 6443);
    }

    private String rv(String group, String plural) {
        return ObjectMeta.of(fixture.get(group, plural, "default", "kubernetes")).resourceVersion();
    }

    private static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static final class MutableClock extends Clock {
        private Instant now = Instant.parse("2026-01-01T00:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}

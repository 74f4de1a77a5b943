package io.kapi.apis.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.apis.groups.BuiltinBehaviours;
import io.kapi.apis.groups.ServerHooks;
import io.kapi.harness.StoreCalls;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.resource.ResourceTable;
import io.kapi.registry.DeleteOptions;
import io.kapi.registry.ListOptions;
import io.kapi.registry.Registry;
import io.kapi.registry.ResourceStore;
import io.kapi.registry.StoreServices;
import io.kapi.storage.Storage;
import io.kapi.storage.backends.Storages;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ServiceAllocatorsTest {

    private final Storage storage = Storages.memory();
    private ServiceAllocators allocators;
    private Registry registry;
    private ResourceStore services;
    private ResourceStore ipAddresses;

    private void start(ServiceRanges ranges) {
        ResourceTable table = ResourceTable.builtin();
        allocators = new ServiceAllocators(ranges, storage, Duration.ofHours(1), Duration.ZERO, Clock.systemUTC());
        registry = new Registry(table.resources(), storage, new BuiltinBehaviours(ServerHooks.NONE.withServices(allocators::decorate)),
                StoreServices.minimal((r, o) -> List.of(), Clock.systemUTC()));
        allocators.connect(registry);
        StoreCalls.systemNamespaces(registry);
        services = registry.store(table.find("", "v1", "services").orElseThrow()).orElseThrow();
        ipAddresses = registry.store(table.find("networking.k8s.io", "v1", "ipaddresses").orElseThrow()).orElseThrow();
    }

    private void start() {
        start(ServiceRanges.DEFAULT);
    }

    @AfterEach
    void tearDown() {
        if (allocators != null) {
            allocators.close();
        }
        storage.close();
    }

    @Test
    @DisplayName("a ClusterIP service gets an IP of the range, recorded as an IPAddress naming the service")
    void allocatesClusterIp() {
        start();
        ObjectNode created = StoreCalls.create(services, "default", service("web", "ClusterIP"), false);
        String ip = created.path("spec").path("clusterIP").asText();
        assertTrue(IpRange.parse("10.96.0.0/12").contains(ip), ip);
        assertEquals(ip, created.path("spec").path("clusterIPs").get(0).asText());
        assertEquals("SingleStack", created.path("spec").path("ipFamilyPolicy").asText());
        assertEquals("[\"IPv4\"]", created.path("spec").path("ipFamilies").toString());
        ObjectNode address = ipAddresses.get("", ip);
        assertEquals("ipallocator.k8s.io", address.path("metadata").path("labels")
                .path("ipaddress.kubernetes.io/managed-by").asText());
        assertEquals("IPv4", address.path("metadata").path("labels").path("ipaddress.kubernetes.io/ip-family").asText());
        JsonNode ref = address.path("spec").path("parentRef");
        assertEquals("services", ref.path("resource").asText());
        assertEquals("default", ref.path("namespace").asText());
        assertEquals("web", ref.path("name").asText());
    }

    @Test
    @DisplayName("the post-start hook creates the kubernetes ServiceCIDR for the configured range")
    void createsServiceCidr() {
        start();
        allocators.run();
        ResourceStore cidrs = registry.store(ResourceTable.builtin().find("networking.k8s.io", "v1", "servicecidrs")
                .orElseThrow()).orElseThrow();
        ObjectNode cidr = cidrs.get("", "kubernetes");
        assertEquals("[\"10.96.0.0/12\"]", cidr.path("spec").path("cidrs").toString());
        assertEquals("Ready", cidr.path("status").path("conditions").get(0).path("type").asText());
    }

    @Test
    @DisplayName("8 threads creating 50 NodePort services each get distinct IPs and node ports")
    void concurrentCreates() throws Exception {
        start();
        List<Future<ObjectNode>> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            for (int t = 0; t < 8; t++) {
                int thread = t;
                for (int i = 0; i < 50; i++) {
                    int n = i;
                    results.add(pool.submit(() -> StoreCalls.create(services, "default",
                            service("s-" + thread + "-" + n, "NodePort"), false)));
                }
            }
        }
        Set<String> ips = new HashSet<>();
        Set<Integer> ports = new HashSet<>();
        for (Future<ObjectNode> f : results) {
            ObjectNode s = f.get();
            ips.add(s.path("spec").path("clusterIP").asText());
            ports.add(s.path("spec").path("ports").get(0).path("nodePort").asInt());
        }
        assertEquals(400, ips.size());
        assertEquals(400, ports.size());
        assertTrue(ports.stream().allMatch(p -> p >= 30000 && p <= 32767));
        assertEquals(400, ipAddresses.list("", ListOptions.ALL).items().size());
        assertEquals(400, allocators.portAllocator().snapshot().bits().cardinality());
    }

    @Test
    @DisplayName("a requested IP that is taken, or out of range, is refused with kube's message")
    void requestedIpRefused() {
        start();
        StoreCalls.create(services, "default", withIp(service("a", "ClusterIP"), "10.96.0.10"), false);
        ApiException taken = assertThrows(ApiException.class,
                () -> StoreCalls.create(services, "default", withIp(service("b", "ClusterIP"), "10.96.0.10"), false));
        assertEquals(422, taken.code());
        assertTrue(taken.getMessage().contains("spec.clusterIPs: Invalid value: [\"10.96.0.10\"]: failed to allocate IP "
                + "10.96.0.10: provided IP is already allocated"), taken.getMessage());
        ApiException outside = assertThrows(ApiException.class,
                () -> StoreCalls.create(services, "default", withIp(service("c", "ClusterIP"), "192.168.0.1"), false));
        assertTrue(outside.getMessage().contains("failed to allocate IP 192.168.0.1: the provided IP (192.168.0.1) is "
                + "not in the valid range. The range of valid IPs is 10.96.0.0/12"), outside.getMessage());
        assertEquals(1, ipAddresses.list("", ListOptions.ALL).items().size());
    }

    @Test
    @DisplayName("the first IP of the range is allocated normally to a service that asks for it")
    void firstIp() {
        start();
        ObjectNode s = StoreCalls.create(services, "default", withIp(service("kubernetes", "ClusterIP"), "10.96.0.1"), false);
        assertEquals("10.96.0.1", s.path("spec").path("clusterIP").asText());
        assertEquals("kubernetes", ipAddresses.get("", "10.96.0.1").path("spec").path("parentRef").path("name").asText());
    }

    @Test
    @DisplayName("deleting a service releases its IP and node port for reuse")
    void releaseOnDelete() {
        start();
        ObjectNode a = withIp(service("a", "NodePort"), "10.96.0.20");
        ((ObjectNode) a.path("spec").path("ports").get(0)).put("nodePort", 30080);
        StoreCalls.create(services, "default", a, false);
        StoreCalls.delete(services, "default", "a", DeleteOptions.DEFAULT);
        assertThrows(ApiException.class, () -> ipAddresses.get("", "10.96.0.20"));
        assertEquals(0, allocators.portAllocator().snapshot().bits().cardinality());
        ObjectNode b = withIp(service("b", "NodePort"), "10.96.0.20");
        ((ObjectNode) b.path("spec").path("ports").get(0)).put("nodePort", 30080);
        ObjectNode created = StoreCalls.create(services, "default", b, false);
        assertEquals(30080, created.path("spec").path("ports").get(0).path("nodePort").asInt());
    }

    @Test
    @DisplayName("a requested node port that is taken or out of range is refused; TCP and UDP may share one")
    void nodePorts() {
        start();
        ObjectNode a = service("a", "NodePort");
        ((ObjectNode) a.path("spec").path("ports").get(0)).put("nodePort", 30080);
        ObjectNode udp = a.with("spec").withArray("ports").addObject();
        udp.put("name", "dns").put("port", 80).put("protocol", "UDP");
        ObjectNode created = StoreCalls.create(services, "default", a, false);
        assertEquals(30080, created.path("spec").path("ports").get(1).path("nodePort").asInt());

        ObjectNode b = service("b", "NodePort");
        ((ObjectNode) b.path("spec").path("ports").get(0)).put("nodePort", 30080);
        ApiException taken = assertThrows(ApiException.class, () -> StoreCalls.create(services, "default", b, false));
        assertEquals(422, taken.code());
        assertTrue(taken.getMessage().contains(
                "spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated"), taken.getMessage());
        ((ObjectNode) b.path("spec").path("ports").get(0)).put("nodePort", 80);
        ApiException outside = assertThrows(ApiException.class, () -> StoreCalls.create(services, "default", b, false));
        assertTrue(outside.getMessage().contains("spec.ports[0].nodePort: Invalid value: 80: provided port is not in "
                + "the valid range. The range of valid ports is 30000-32767"), outside.getMessage());
        assertEquals(1, ipAddresses.list("", ListOptions.ALL).items().size(), "the refused creates released their IPs");
    }

    @Test
    @DisplayName("a LoadBalancer with externalTrafficPolicy Local gets a health check node port")
    void healthCheckNodePort() {
        start();
        ObjectNode lb = service("lb", "LoadBalancer");
        ((ObjectNode) lb.path("spec")).put("externalTrafficPolicy", "Local");
        ObjectNode created = StoreCalls.create(services, "default", lb, false);
        int health = created.path("spec").path("healthCheckNodePort").asInt();
        assertTrue(health >= 30000 && health <= 32767);
        assertEquals(2, allocators.portAllocator().snapshot().bits().cardinality());
    }

    @Test
    @DisplayName("a dry run shows an allocation but persists nothing")
    void dryRun() {
        start();
        ObjectNode created = StoreCalls.create(services, "default", service("dry", "NodePort"), true);
        assertFalse(created.path("spec").path("clusterIP").asText().isEmpty());
        assertTrue(created.path("spec").path("ports").get(0).path("nodePort").asInt() >= 30000);
        assertTrue(ipAddresses.list("", ListOptions.ALL).items().isEmpty());
        assertEquals(0, allocators.portAllocator().snapshot().bits().cardinality());
    }

    @Test
    @DisplayName("a create that fails in storage gives back what it allocated")
    void failedCreateReleases() {
        start();
        StoreCalls.create(services, "default", service("same", "NodePort"), false);
        assertThrows(ApiException.class, () -> StoreCalls.create(services, "default", service("same", "NodePort"), false));
        assertEquals(1, ipAddresses.list("", ListOptions.ALL).items().size());
        assertEquals(1, allocators.portAllocator().snapshot().bits().cardinality());
    }

    @Test
    @DisplayName("changing the type to ExternalName releases the IP; NodePort to ClusterIP releases the node port")
    void typeChanges() {
        start();
        ObjectNode np = StoreCalls.create(services, "default", service("np", "NodePort"), false);
        np.with("spec").put("type", "ClusterIP");
        ObjectNode updated = StoreCalls.update(services, "default", "np", np, false).object();
        assertTrue(updated.path("spec").path("ports").get(0).path("nodePort").isMissingNode());
        assertEquals(0, allocators.portAllocator().snapshot().bits().cardinality());
        String ip = updated.path("spec").path("clusterIP").asText();
        assertEquals(ip, ipAddresses.get("", ip).path("metadata").path("name").asText());

        updated.with("spec").put("type", "ExternalName").put("externalName", "example.com");
        ObjectNode external = StoreCalls.update(services, "default", "np", updated, false).object();
        assertFalse(external.path("spec").has("clusterIP"));
        assertTrue(ipAddresses.list("", ListOptions.ALL).items().isEmpty());

        external.with("spec").put("type", "NodePort");
        ObjectNode back = StoreCalls.update(services, "default", "np", external, false).object();
        assertFalse(back.path("spec").path("clusterIP").asText().isEmpty());
        assertEquals(1, allocators.portAllocator().snapshot().bits().cardinality());
    }

    @Test
    @DisplayName("an update asking for a taken node port is refused and keeps what the service held")
    void updateRefusedKeepsAllocations() {
        start();
        StoreCalls.create(services, "default", service("a", "NodePort"), false);
        ObjectNode b = StoreCalls.create(services, "default", service("b", "NodePort"), false);
        int taken = services.get("default", "a").path("spec").path("ports").get(0).path("nodePort").asInt();
        int own = b.path("spec").path("ports").get(0).path("nodePort").asInt();
        ObjectNode change = b.deepCopy();
        change.with("spec").withArray("ports").addObject().put("name", "extra").put("port", 81).put("protocol", "TCP");
        ((ObjectNode) change.path("spec").path("ports").get(0)).put("nodePort", taken);
        ApiException e = assertThrows(ApiException.class, () -> StoreCalls.update(services, "default", "b", change, false));
        assertEquals(422, e.code());
        assertEquals(2, allocators.portAllocator().snapshot().bits().cardinality(), "the extra port was given back");
        assertTrue(allocators.portAllocator().snapshot().bits().get(own - 30000));
    }

    @Test
    @DisplayName("a dry-run update that adds a node port persists nothing")
    void dryRunUpdate() {
        start();
        ObjectNode s = StoreCalls.create(services, "default", service("s", "ClusterIP"), false);
        s.with("spec").put("type", "NodePort");
        ObjectNode shown = StoreCalls.update(services, "default", "s", s, true).object();
        assertTrue(shown.path("spec").path("ports").get(0).path("nodePort").asInt() >= 30000);
        assertEquals(0, allocators.portAllocator().snapshot().bits().cardinality());
        assertEquals("ClusterIP", services.get("default", "s").path("spec").path("type").asText());
    }

    @Test
    @DisplayName("upgrading a single-stack service to PreferDualStack allocates its second family")
    void upgradeToDualStack() {
        start(ServiceRanges.parse("10.96.0.0/16,fd00:10:96::/108", "30000-32767"));
        ObjectNode s = StoreCalls.create(services, "default", service("up", "ClusterIP"), false);
        assertEquals(1, s.path("spec").path("clusterIPs").size());
        s.with("spec").put("ipFamilyPolicy", "PreferDualStack");
        ObjectNode up = StoreCalls.update(services, "default", "up", s, false).object();
        assertEquals(2, up.path("spec").path("clusterIPs").size());
        assertEquals(2, ipAddresses.list("", ListOptions.ALL).items().size());
    }

    @Test
    @DisplayName("headless and ExternalName services get no IP")
    void noIp() {
        start();
        ObjectNode headless = withIp(service("h", "ClusterIP"), "None");
        assertEquals("None", StoreCalls.create(services, "default", headless, false).path("spec").path("clusterIP").asText());
        ObjectNode ext = service("e", "ExternalName");
        ((ObjectNode) ext.path("spec")).put("externalName", "example.com");
        ObjectNode created = StoreCalls.create(services, "default", ext, false);
        assertFalse(created.path("spec").has("clusterIP"));
        assertFalse(created.path("spec").has("ipFamilies"));
        assertTrue(ipAddresses.list("", ListOptions.ALL).items().isEmpty());
    }

    @Test
    @DisplayName("dual-stack: PreferDualStack gets an IPv4 and an IPv6 address; RequireDualStack on single-stack is refused")
    void dualStack() {
        start(ServiceRanges.parse("10.96.0.0/16,fd00:10:96::/108", "30000-32767"));
        ObjectNode s = service("dual", "ClusterIP");
        ((ObjectNode) s.path("spec")).put("ipFamilyPolicy", "PreferDualStack");
        ObjectNode created = StoreCalls.create(services, "default", s, false);
        assertEquals("[\"IPv4\",\"IPv6\"]", created.path("spec").path("ipFamilies").toString());
        JsonNode ips = created.path("spec").path("clusterIPs");
        assertEquals(2, ips.size());
        assertTrue(ips.get(1).asText().startsWith("fd00:10:96::"), ips.toString());
        assertEquals("IPv6", ipAddresses.get("", ips.get(1).asText()).path("metadata").path("labels")
                .path("ipaddress.kubernetes.io/ip-family").asText());
        ObjectNode single = StoreCalls.create(services, "default", service("single", "ClusterIP"), false);
        assertEquals(1, single.path("spec").path("clusterIPs").size());

        ObjectNode v6 = withIp(service("v6", "ClusterIP"), "fd00:10:96::a");
        assertEquals("[\"IPv6\"]", StoreCalls.create(services, "default", v6, false).path("spec").path("ipFamilies").toString());
    }

    @Test
    @DisplayName("RequireDualStack on a single-stack cluster is refused")
    void requireDualStackOnSingleStack() {
        start();
        ObjectNode s = service("dual", "ClusterIP");
        ((ObjectNode) s.path("spec")).put("ipFamilyPolicy", "RequireDualStack");
        ApiException e = assertThrows(ApiException.class, () -> StoreCalls.create(services, "default", s, false));
        assertTrue(e.getMessage().contains("spec.ipFamilyPolicy: Invalid value: \"RequireDualStack\": this cluster is "
                + "not configured for dual-stack services"), e.getMessage());
    }

    @Test
    @DisplayName("after a restart the repair restores missing IPAddresses and node ports and removes leaked ones")
    void repairAfterRestart() {
        start();
        ObjectNode kept = StoreCalls.create(services, "default", service("kept", "NodePort"), false);
        String ip = kept.path("spec").path("clusterIP").asText();
        int port = kept.path("spec").path("ports").get(0).path("nodePort").asInt();
        StoreCalls.delete(ipAddresses, "", ip, DeleteOptions.DEFAULT);
        storage.delete(NodePortAllocator.KEY, 0);
        allocators.close();

        start();   // a new registry over the same storage
        StoreCalls.create(ipAddresses, "", ipAddress("10.96.0.99"), false);   // leaked by a crash between allocation and store
        ObjectNode other = StoreCalls.create(services, "default", service("moved", "ClusterIP"), false);
        String otherIp = other.path("spec").path("clusterIP").asText();
        // the address as an allocation for a since-renamed service left it (parentRef is immutable: made anew)
        ObjectNode misnamed = ipAddresses.get("", otherIp);
        misnamed.with("spec").with("parentRef").put("name", "old-generated-name");
        misnamed.with("metadata").remove(List.of("uid", "resourceVersion", "creationTimestamp", "managedFields"));
        StoreCalls.delete(ipAddresses, "", otherIp, DeleteOptions.DEFAULT);
        StoreCalls.create(ipAddresses, "", misnamed, false);
        allocators.repair();
        assertEquals("moved", ipAddresses.get("", otherIp).path("spec").path("parentRef").path("name").asText());
        assertEquals("kept", ipAddresses.get("", ip).path("spec").path("parentRef").path("name").asText());
        assertThrows(ApiException.class, () -> ipAddresses.get("", "10.96.0.99"));
        assertTrue(allocators.portAllocator().snapshot().bits().get(port - 30000));

        ObjectNode clash = withIp(service("clash", "NodePort"), ip);
        assertEquals(422, assertThrows(ApiException.class, () -> StoreCalls.create(services, "default", clash, false)).code());
        ObjectNode samePort = service("other", "NodePort");
        ((ObjectNode) samePort.path("spec").path("ports").get(0)).put("nodePort", port);
        assertEquals(422, assertThrows(ApiException.class, () -> StoreCalls.create(services, "default", samePort, false)).code());
    }

    @Test
    @DisplayName("a node port no service holds is freed after a few repair passes")
    void portLeak() {
        start();
        allocators.portAllocator().allocate(31000, false);
        for (int i = 0; i < ServiceRepair.LEAK_PASSES - 1; i++) {
            allocators.repair();
            assertTrue(allocators.portAllocator().snapshot().bits().get(1000));
        }
        allocators.repair();
        assertFalse(allocators.portAllocator().snapshot().bits().get(1000));
    }

    private static ObjectNode ipAddress(String ip) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("apiVersion", "networking.k8s.io/v1").put("kind", "IPAddress");
        o.putObject("metadata").put("name", ip).putObject("labels")
                .put(ClusterIpAllocator.MANAGED_BY_LABEL, ClusterIpAllocator.MANAGED_BY);
        o.putObject("spec").putObject("parentRef").put("resource", "services").put("namespace", "default")
                .put("name", "gone");
        return o;
    }

    private static ObjectNode withIp(ObjectNode service, String ip) {
        ((ObjectNode) service.path("spec")).put("clusterIP", ip);
        return service;
    }

    private static ObjectNode service(String name, String type) {
        ObjectNode s = Json.MAPPER.createObjectNode();
        s.put("apiVersion", "v1").put("kind", "Service");
        s.putObject("metadata").put("name", name);
        ObjectNode spec = s.putObject("spec");
        spec.put("type", type);
        spec.putObject("selector").put("app", name);
        spec.putArray("ports").addObject().put("name", "http").put("port", 80).put("protocol", "TCP");
        return s;
    }
}

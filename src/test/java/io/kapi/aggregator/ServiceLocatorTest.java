package io.kapi.aggregator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.ObjectLookup;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Where an APIService's Service is reached, with cluster-IP and with endpoint routing. */
class ServiceLocatorTest {

    private final Map<String, ObjectNode> objects = new HashMap<>();
    private final ObjectLookup lookup = new ObjectLookup() {
        @Override
        public Optional<ObjectNode> get(GroupVersionResource resource, String namespace, String name) {
            return Optional.ofNullable(objects.get(resource.resource() + "/" + namespace + "/" + name));
        }

        @Override
        public List<ObjectNode> list(GroupVersionResource resource, String namespace) {
            return objects.entrySet().stream().filter(e -> e.getKey().startsWith(resource.resource() + "/" + namespace + "/"))
                    .map(Map.Entry::getValue).toList();
        }
    };

    private void put(String key, String json) {
        try {
            objects.put(key, (ObjectNode) Json.MAPPER.readTree(json));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ApiServiceRoute.ServiceRef ref(int port) {
        return new ApiServiceRoute.ServiceRef("default", "wardle", port);
    }

    @Test
    @DisplayName("cluster-IP routing goes to the Service's cluster IP on the APIService's port")
    void clusterIp() {
        put("services/default/wardle", "{\"spec\":{\"clusterIP\":\"10.96.0.20\",\"ports\":[{\"port\":443,\"targetPort\":8443}]}}");
        assertEquals(URI.create("https://10.96.0.20:443"), ServiceLocator.of(false, lookup).locate(ref(443)));
        assertEquals("no service port 8443 found for service \"wardle\"", assertThrows(IllegalStateException.class,
                () -> ServiceLocator.of(false, lookup).locate(ref(8443))).getMessage());
    }

    @Test
    @DisplayName("an ExternalName Service is reached at its name, in either mode")
    void externalName() {
        put("services/default/wardle", "{\"spec\":{\"type\":\"ExternalName\",\"externalName\":\"localhost\"}}");
        assertEquals(URI.create("https://localhost:9443"), ServiceLocator.of(false, lookup).locate(ref(9443)));
        assertEquals(URI.create("https://localhost:9443"), ServiceLocator.of(true, lookup).locate(ref(9443)));
    }

    @Test
    @DisplayName("endpoint routing goes to a ready endpoint of the Service's EndpointSlices, on the target port")
    void endpoints() {
        put("services/default/wardle", "{\"spec\":{\"clusterIP\":\"10.96.0.20\",\"ports\":[{\"name\":\"https\",\"port\":443}]}}");
        put("endpointslices/default/wardle-1", "{\"metadata\":{\"labels\":{\"kubernetes.io/service-name\":\"wardle\"}},"
                + "\"ports\":[{\"name\":\"https\",\"port\":8443}],\"endpoints\":[{\"addresses\":[\"127.0.0.1\"]}]}");
        assertEquals(URI.create("https://127.0.0.1:8443"), ServiceLocator.of(true, lookup).locate(ref(443)));
    }

    @Test
    @DisplayName("a missing or headless Service cannot be located, in kube's words")
    void missing() {
        assertEquals("service \"wardle\" not found", assertThrows(IllegalStateException.class,
                () -> ServiceLocator.of(false, lookup).locate(ref(443))).getMessage());
        put("services/default/wardle", "{\"spec\":{\"clusterIP\":\"None\",\"ports\":[{\"port\":443}]}}");
        assertThrows(IllegalStateException.class, () -> ServiceLocator.of(false, lookup).locate(ref(443)));
    }
}

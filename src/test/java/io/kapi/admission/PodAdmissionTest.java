package io.kapi.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.apis.BuiltinStrategies;
import io.kapi.apis.SystemNamespaces;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.resource.ResourceTable;
import io.kapi.registry.Registry;
import io.kapi.registry.ResourceStore;
import io.kapi.storage.Storage;
import io.kapi.storage.Storages;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PodAdmissionTest {

    private Storage storage;
    private Registry registry;
    private ResourceStore pods;

    @BeforeEach
    void setUp() {
        storage = Storages.memory();
        ResourceTable table = ResourceTable.builtin();
        PodAdmission admission = new PodAdmission();
        registry = new Registry(table.resources(), storage, new BuiltinStrategies(Map.of("/pods", admission::decorate)),
                (r, o) -> List.of(), Clock.systemUTC());
        admission.connect(registry);
        new SystemNamespaces(registry.namespaces()).run();
        pods = registry.store(table.find("", "v1", "pods").orElseThrow()).orElseThrow();
    }

    @AfterEach
    void tearDown() {
        storage.close();
    }

    @Test
    @DisplayName("a new pod gets the default service account, its token volume mounted, and priority 0")
    void defaults() {
        ObjectNode spec = pods.create("default", pod("p"), false).path("spec").deepCopy();
        assertEquals("default", spec.path("serviceAccountName").asText());
        String volume = spec.path("volumes").get(0).path("name").asText();
        assertTrue(volume.matches("kube-api-access-[a-z0-9]{5}"), volume);
        assertEquals(PodAdmission.TOKEN_MOUNT,
                spec.path("containers").get(0).path("volumeMounts").get(0).path("mountPath").asText());
        assertEquals(0, spec.path("priority").asInt(-1));
        assertEquals("PreemptLowerPriority", spec.path("preemptionPolicy").asText());
    }

    @Test
    @DisplayName("automountServiceAccountToken false leaves the token out")
    void noAutomount() {
        ObjectNode p = pod("p");
        p.with("spec").put("automountServiceAccountToken", false);
        ObjectNode spec = pods.create("default", p, false).path("spec").deepCopy();
        assertFalse(spec.has("volumes"));
    }

    @Test
    @DisplayName("an unknown priority class is Forbidden, worded as kube-apiserver")
    void unknownPriorityClass() {
        ObjectNode p = pod("p");
        p.with("spec").put("priorityClassName", "nope");
        ApiException e = assertThrows(ApiException.class, () -> pods.create("default", p, false));
        assertEquals(403, e.code());
        assertEquals("pods \"p\" is forbidden: no PriorityClass with name nope was found", e.getMessage());
    }

    private static ObjectNode pod(String name) {
        ObjectNode pod = Json.object();
        pod.put("apiVersion", "v1");
        pod.put("kind", "Pod");
        pod.putObject("metadata").put("name", name);
        pod.putObject("spec").putArray("containers").addObject().put("name", "c").put("image", "nginx");
        return pod;
    }
}

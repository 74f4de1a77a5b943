package io.kapi.controllers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.AdmissionChain;
import io.kapi.admission.plugin.NamespaceLifecycle;
import io.kapi.harness.StoreCalls;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.resource.ResourceTable;
import io.kapi.registry.DeleteOptions;
import io.kapi.registry.DeleteResult;
import io.kapi.registry.Registry;
import io.kapi.registry.ResourceStore;
import io.kapi.registry.StoreServices;
import io.kapi.storage.Storage;
import io.kapi.storage.backends.Storages;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class NamespaceLifecycleTest {

    private io.kapi.assembly.ApiAssembly assembly;
    private Registry registry;
    private ResourceStore configmaps;

    @BeforeEach
    void setUp() {
        assembly = io.kapi.assembly.ApiAssembly.create(io.kapi.assembly.ApiConfig.builder()
                .dataDir(java.nio.file.Path.of("target/unused")).build());
        registry = assembly.registry();
        ResourceTable table = ResourceTable.builtin();
        StoreCalls.systemNamespaces(registry);
        configmaps = registry.store(table.find("", "v1", "configmaps").orElseThrow()).orElseThrow();
        StoreCalls.create(registry.namespaces(), "", object("Namespace", "x"), false);
        StoreCalls.create(configmaps, "x", object("ConfigMap", "c1"), false);
    }

    @AfterEach
    void tearDown() throws Exception {
        assembly.close();
    }

    @Test
    @DisplayName("deleting a namespace makes it Terminating, refuses new content, and the controller finishes it")
    void deleteNamespace() {
        DeleteResult result = StoreCalls.delete(registry.namespaces(), "", "x", DeleteOptions.DEFAULT);
        assertFalse(result.deleted());
        assertEquals("Terminating", result.object().path("status").path("phase").asText());
        ApiException refused = assertThrows(ApiException.class,
                () -> StoreCalls.create(configmaps, "x", object("ConfigMap", "c2"), false));
        assertEquals(403, refused.code());
        assertEquals("configmaps \"c2\" is forbidden: unable to create new content in namespace x because it is "
                + "being terminated", refused.getMessage());
        try (var informers = new io.kapi.informers.SharedInformers(registry::store);
             var controller = new NamespaceController(assembly.loopback().as(
                     io.kapi.user.SystemUsers.controller("namespace-controller"), "kube-controller-manager"), registry,
                     informers)) {
            informers.start();
            controller.run();
            io.kapi.fixtures.Await.atMost(Duration.ofSeconds(30)).until("namespace x finalized and gone",
                    () -> registry.namespaces().find("", "x").isEmpty());
        }
        assertThrows(ApiException.class, () -> configmaps.get("x", "c1"));
        ApiException gone = assertThrows(ApiException.class, () -> registry.namespaces().get("", "x"));
        assertEquals(404, gone.code());
    }

    @Test
    @DisplayName("the system namespaces cannot be deleted")
    void immortal() {
        for (String name : List.of("default", "kube-system", "kube-public")) {
            ApiException e = assertThrows(ApiException.class,
                    () -> StoreCalls.delete(registry.namespaces(), "", name, DeleteOptions.DEFAULT));
            assertEquals(403, e.code());
            assertEquals("namespaces \"" + name + "\" is forbidden: this namespace may not be deleted", e.getMessage());
        }
    }

    @Test
    @DisplayName("an orphan propagation policy holds the object with the orphan finalizer")
    void orphan() {
        DeleteResult result = StoreCalls.delete(configmaps, "x", "c1", new DeleteOptions(null, null, false, "Orphan", null));
        assertFalse(result.deleted());
        assertEquals("orphan", result.object().path("metadata").path("finalizers").get(0).asText());
        assertTrue(!ObjectMeta.of(configmaps.get("x", "c1")).deletionTimestamp().isEmpty());
    }

    private static ObjectNode object(String kind, String name) {
        ObjectNode o = Json.object();
        o.put("apiVersion", "v1");
        o.put("kind", kind);
        o.putObject("metadata").put("name", name);
        return o;
    }
}

package io.kapi.admission.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * NamespaceLifecycle reads namespaces from the watch cache, as kube's lister: the cases where the cache
 * may lag (a namespace just created, a namespace just deleted) must still be decided on storage.
 */
class NamespaceLifecycleAdmissionTest {

    @InMemoryApi
    private ApiHarness api;

    @Test
    @DisplayName("an object is created in a namespace created just before; a missing namespace is 404")
    void freshNamespace() {
        for (int i = 0; i < 20; i++) {
            assertEquals(201, api.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"fresh-" + i + "\"}}").code());
            ApiHarness.Reply cm = api.post("/api/v1/namespaces/fresh-" + i + "/configmaps", "{\"metadata\":{\"name\":\"c\"}}");
            assertEquals(201, cm.code(), cm.text());
        }
        ApiHarness.Reply missing = api.post("/api/v1/namespaces/nowhere/configmaps", "{\"metadata\":{\"name\":\"c\"}}");
        assertEquals(404, missing.code(), missing.text());
        assertEquals("namespaces \"nowhere\" not found", missing.body().path("message").asText());
    }

    @Test
    @DisplayName("nothing is created in a namespace just deleted: 403 NamespaceTerminating, even before the cache sees it")
    void deletedNamespace() {
        for (int i = 0; i < 20; i++) {
            String ns = "gone-" + i;
            assertEquals(201, api.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"" + ns + "\"}}").code());
            assertEquals(201, api.post("/api/v1/namespaces/" + ns + "/configmaps", "{\"metadata\":{\"name\":\"a\"}}").code());
            ApiHarness.Reply deleted = api.delete("/api/v1/namespaces/" + ns);
            assertEquals(200, deleted.code(), deleted.text());
            ApiHarness.Reply cm = api.post("/api/v1/namespaces/" + ns + "/configmaps", "{\"metadata\":{\"name\":\"b\"}}");
            assertEquals(403, cm.code(), cm.text());
            assertEquals("NamespaceTerminating", cm.body().path("details").path("causes").get(0).path("reason").asText());
            assertEquals(200, api.get("/api/v1/namespaces/" + ns + "/configmaps/a").code(), "updates and reads still pass");
        }
    }
}

package io.kapi.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.assembly.ApiConfig;
import io.kapi.encryption.EncryptionAtRest;
import io.kapi.encryption.EncryptionOptions;
import io.kapi.harness.ApiHarness;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.resource.ResourceTable;
import io.kapi.metrics.Metrics;
import io.kapi.storage.KeyValue;
import io.kapi.storage.Storage;
import io.kapi.storage.ValueTransformer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Endpoints, ReplicationControllers, CRDs and APIServices live under kube-apiserver's keys, and a data
 * directory an earlier Kapi wrote (under their plurals, encrypted with the key as authenticated data) is moved
 * to them on start, every object still served.
 */
class LegacyKeysTest {

    private static final String ENCRYPTION = """
            apiVersion: apiserver.config.k8s.io/v1
            kind: EncryptionConfiguration
            resources:
              - resources: [endpoints, replicationcontrollers, customresourcedefinitions.apiextensions.k8s.io]
                providers:
                  - aesgcm:
                      keys:
                        - name: key1
                          secret: c2VjcmV0IGlzIHNlY3VyZSwgb3IgaXMgaXQ/IDEyMzQ=
            """;

    /** Each object's path in the API and its key under kube's layout and under Kapi's earlier one. */
    private static final Map<String, String[]> OBJECTS = new LinkedHashMap<>();

    static {
        OBJECTS.put("/api/v1/namespaces/default/endpoints/ep",
                new String[] {"/registry/services/endpoints/default/ep", "/registry/endpoints/default/ep"});
        OBJECTS.put("/api/v1/namespaces/default/replicationcontrollers/rc",
                new String[] {"/registry/controllers/default/rc", "/registry/replicationcontrollers/default/rc"});
        OBJECTS.put("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com",
                new String[] {"/registry/apiextensions.k8s.io/customresourcedefinitions/widgets.example.com",
                        "/registry/customresourcedefinitions/widgets.example.com"});
        OBJECTS.put("/apis/apiregistration.k8s.io/v1/apiservices/v1.example.org",
                new String[] {"/registry/apiregistration.k8s.io/apiservices/v1.example.org",
                        "/registry/apiservices/v1.example.org"});
    }

    @TempDir
    Path dir;

    private ApiConfig config() throws Exception {
        Path file = dir.resolve("encryption.yaml");
        Files.writeString(file, ENCRYPTION);
        return ApiConfig.builder().dataDir(dir.resolve("data")).storageBackend("embedded")
                .encryption(new EncryptionOptions(file, false))
                .admission(ApiConfig.Admission.DEFAULT.bare()).build();
    }

    @Test
    @DisplayName("the resource table's paths are kube-apiserver's and the moves end there")
    void pathsAreKubes() {
        ResourceTable table = ResourceTable.builtin();
        for (LegacyKeys.Move move : LegacyKeys.MOVES) {
            ApiResource resource = table.resources().stream()
                    .filter(r -> r.group().equals(move.group()) && r.name().equals(move.resource()))
                    .findFirst().orElseThrow();
            assertEquals(move.to(), table.facts(resource).storagePath(), move.toString());
        }
    }

    @Test
    @DisplayName("objects under an earlier Kapi's keys are moved to kube's on start and served, still encrypted")
    void moved() throws Exception {
        Map<String, String> uids = new LinkedHashMap<>();
        try (ApiHarness api = new ApiHarness(config())) {
            create(api);
            // the CRD controller writes the CRD's status: let it, so that the move below is not raced
            awaitCondition(api, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com",
                    "Established");
            Storage storage = api.assembly().storage();
            for (var e : OBJECTS.entrySet()) {
                uids.put(e.getKey(), api.get(e.getKey()).body().at("/metadata/uid").asText());
                assertTrue(storage.get(e.getValue()[0]).isPresent(), "kube's key " + e.getValue()[0]);
                assertFalse(storage.get(e.getValue()[1]).isPresent(), "not the plural " + e.getValue()[1]);
            }
            // as an earlier Kapi left them: under the plural, aesgcm's authenticated data the old key
            try (EncryptionAtRest keys = EncryptionAtRest.open(new EncryptionOptions(dir.resolve("encryption.yaml"),
                    false), Metrics.defaults().encryption(), "test")) {
                for (var e : OBJECTS.entrySet()) {
                    String[] k = e.getValue();
                    KeyValue kv = storage.get(k[0]).orElseThrow();
                    ValueTransformer t = transformer(keys, e.getKey());
                    storage.create(k[1], t.toStorage(t.fromStorage(kv.value(), k[0]), k[1]));
                    storage.delete(k[0], kv.modRevision());
                }
            }
        }
        try (ApiHarness api = new ApiHarness(config())) {
            Storage storage = api.assembly().storage();
            for (var e : OBJECTS.entrySet()) {
                ApiHarness.Reply reply = api.get(e.getKey());
                assertEquals(200, reply.code(), e.getKey() + ": " + reply.text());
                assertEquals(uids.get(e.getKey()), reply.body().at("/metadata/uid").asText());
                assertFalse(storage.get(e.getValue()[1]).isPresent(), "moved from " + e.getValue()[1]);
            }
            byte[] endpoints = storage.get("/registry/services/endpoints/default/ep").orElseThrow().value();
            assertTrue(new String(endpoints, StandardCharsets.ISO_8859_1).startsWith("k8s:enc:aesgcm:v1:key1:"),
                    "still encrypted");
            assertEquals("10.0.0.1", api.get("/api/v1/namespaces/default/endpoints/ep").body()
                    .at("/subsets/0/addresses/0/ip").asText());
            assertEquals(200, api.get("/api/v1/namespaces/default/endpoints").code());
            assertEquals(1, api.get("/api/v1/replicationcontrollers").body().path("items").size());
        }
        try (ApiHarness api = new ApiHarness(config())) {
            assertEquals(0, LegacyKeys.migrate(api.assembly().storage(), AtRest.PLAIN), "nothing left to move");
        }
    }

    private static void awaitCondition(ApiHarness api, String path, String type) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            for (var c : api.get(path).body().at("/status/conditions")) {
                if (c.path("type").asText().equals(type) && c.path("status").asText().equals("True")) {
                    return;
                }
            }
            Thread.sleep(25);
        }
        throw new AssertionError(path + " never " + type);
    }

    private static ValueTransformer transformer(EncryptionAtRest keys, String path) {
        String[] parts = path.split("/");
        String group = path.startsWith("/api/v1") ? "" : parts[2];
        String resource = path.startsWith("/api/v1/namespaces") ? parts[5] : parts[4];
        return keys.transformer(group, resource);
    }

    private static void create(ApiHarness api) {
        assertEquals(201, api.post("/api/v1/namespaces/default/endpoints", """
                {"metadata":{"name":"ep"},"subsets":[{"addresses":[{"ip":"10.0.0.1"}],"ports":[{"port":80}]}]}""")
                .code());
        assertEquals(201, api.post("/api/v1/namespaces/default/replicationcontrollers", """
                {"metadata":{"name":"rc"},"spec":{"replicas":0,"selector":{"a":"b"},"template":{"metadata":
                {"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}""").code());
        assertEquals(201, api.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", """
                {"metadata":{"name":"widgets.example.com"},"spec":{"group":"example.com","scope":"Namespaced",
                 "names":{"plural":"widgets","singular":"widget","kind":"Widget"},"versions":[{"name":"v1",
                 "served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}}]}}""").code());
        assertEquals(201, api.post("/apis/apiregistration.k8s.io/v1/apiservices", """
                {"metadata":{"name":"v1.example.org"},"spec":{"group":"example.org","version":"v1",
                 "groupPriorityMinimum":1000,"versionPriority":15}}""").code());
    }
}

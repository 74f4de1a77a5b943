package io.kapi.endpoint.handlers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.assembly.InMemoryServer;
import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Every verb handler once, in memory through the whole filter chain: status codes and bodies. */
class VerbHandlersTest {

    private static final String CMS = "/api/v1/namespaces/default/configmaps";
    private static final String DEPLOYS = "/apis/apps/v1/namespaces/default/deployments";

    @InMemoryApi
    private static ApiHarness api;

    private static String cm(String name, String value) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
                + "\",\"labels\":{\"app\":\"verbs\"}},\"data\":{\"k\":\"" + value + "\"}}";
    }

    @Test
    @DisplayName("create 201, get 200, list 200, update 200, delete 200 Success, then 404")
    void crud() {
        ApiHarness.Reply created = api.post(CMS, cm("crud", "1"));
        assertEquals(201, created.code(), created.text());
        assertEquals("ConfigMap", created.body().path("kind").asText());
        assertEquals("1", api.get(CMS + "/crud").body().path("data").path("k").asText());
        JsonNode list = api.get(CMS + "?labelSelector=app%3Dverbs").body();
        assertEquals("ConfigMapList", list.path("kind").asText());
        assertTrue(list.path("items").size() >= 1);
        ApiHarness.Reply updated = api.put(CMS + "/crud", cm("crud", "2"));
        assertEquals(200, updated.code(), updated.text());
        assertEquals("2", updated.body().path("data").path("k").asText());
        ApiHarness.Reply deleted = api.delete(CMS + "/crud");
        assertEquals(200, deleted.code());
        assertEquals("Success", deleted.body().path("status").asText());
        assertEquals(404, api.get(CMS + "/crud").code());
    }

    @Test
    @DisplayName("a get answers the same bytes from storage and from the watch cache's kept encoding, sees each write, "
            + "and other forms (YAML, Table, protobuf) of the same object are unaffected by the kept one")
    void getFromKeptEncoding() {
        api.post(CMS, cm("kept", "1"));
        String fromStorage = api.get(CMS + "/kept").text();
        api.get(CMS + "?labelSelector=app%3Dverbs"); // the watch cache serves configmaps from now on
        assertEquals(fromStorage, api.get(CMS + "/kept").text(), "the encoding made from the cache");
        assertEquals(fromStorage, api.get(CMS + "/kept").text(), "the kept encoding");
        ApiHarness.Reply yaml = api.call(ApiHarness.ADMIN, "GET", CMS + "/kept", null, "application/yaml", "");
        assertTrue(yaml.text().contains("k: \"1\"") || yaml.text().contains("k: '1'"), yaml.text());
        ApiHarness.Reply table = api.call(ApiHarness.ADMIN, "GET", CMS + "/kept", null,
                "application/json;as=Table;v=v1;g=meta.k8s.io", "");
        assertEquals("Table", table.body().path("kind").asText(), table.text());
        InMemoryServer.Response protobuf = api.raw("GET", CMS + "/kept",
                Map.of("accept", List.of("application/vnd.kubernetes.protobuf")), new byte[0]);
        assertEquals(200, protobuf.status());
        assertEquals("k8s", new String(protobuf.body(), 0, 3, StandardCharsets.US_ASCII));
        assertEquals(fromStorage, api.get(CMS + "/kept").text(), "the cached object was not changed by the other forms");
        api.patch(CMS + "/kept", "application/merge-patch+json", "{\"data\":{\"k\":\"2\"}}");
        assertEquals("2", api.get(CMS + "/kept").body().path("data").path("k").asText(), "a get sees the write before it");
    }

    @Test
    @DisplayName("JSON, merge and strategic merge patches 200; apply creates 201 then updates 200")
    void patches() {
        api.post(CMS, cm("patched", "1"));
        assertEquals("2", api.patch(CMS + "/patched", "application/json-patch+json",
                "[{\"op\":\"replace\",\"path\":\"/data/k\",\"value\":\"2\"}]").body().path("data").path("k").asText());
        assertEquals("3", api.patch(CMS + "/patched", "application/merge-patch+json",
                "{\"data\":{\"k\":\"3\"}}").body().path("data").path("k").asText());
        assertEquals("4", api.patch(CMS + "/patched", "application/strategic-merge-patch+json",
                "{\"data\":{\"k\":\"4\"}}").body().path("data").path("k").asText());
        ApiHarness.Reply applied = api.patch(CMS + "/applied?fieldManager=me", "application/apply-patch+yaml",
                cm("applied", "a"));
        assertEquals(201, applied.code(), applied.text());
        ApiHarness.Reply again = api.patch(CMS + "/applied?fieldManager=me", "application/apply-patch+yaml",
                cm("applied", "b"));
        assertEquals(200, again.code(), again.text());
        assertEquals("b", again.body().path("data").path("k").asText());
        assertEquals(404, api.patch(CMS + "/missing", "application/merge-patch+json", "{}").code());
    }

    @Test
    @DisplayName("deletecollection deletes what the selector picks and answers the list")
    void deleteCollection() {
        api.post(CMS, "{\"metadata\":{\"name\":\"dc1\",\"labels\":{\"batch\":\"x\"}}}");
        api.post(CMS, "{\"metadata\":{\"name\":\"dc2\",\"labels\":{\"batch\":\"x\"}}}");
        ApiHarness.Reply reply = api.delete(CMS + "?labelSelector=batch%3Dx");
        assertEquals(200, reply.code(), reply.text());
        assertEquals(2, reply.body().path("items").size());
        assertEquals(0, api.get(CMS + "?labelSelector=batch%3Dx").body().path("items").size());
    }

    @Test
    @DisplayName("status and scale subresources: GET, PUT and PATCH change only their part")
    void subresources() {
        String deployment = "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"},"
                + "\"spec\":{\"replicas\":1,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":{\"metadata\":"
                + "{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}}}";
        assertEquals(201, api.post(DEPLOYS, deployment).code());
        JsonNode scale = api.get(DEPLOYS + "/web/scale").body();
        assertEquals("Scale", scale.path("kind").asText());
        assertEquals(1, scale.path("spec").path("replicas").asInt());
        ApiHarness.Reply scaled = api.patch(DEPLOYS + "/web/scale", "application/merge-patch+json",
                "{\"spec\":{\"replicas\":3}}");
        assertEquals(3, scaled.body().path("spec").path("replicas").asInt(), scaled.text());
        assertEquals(3, api.get(DEPLOYS + "/web").body().path("spec").path("replicas").asInt());
        ApiHarness.Reply status = api.patch(DEPLOYS + "/web/status", "application/merge-patch+json",
                "{\"status\":{\"replicas\":3},\"spec\":{\"replicas\":9}}");
        assertEquals(200, status.code(), status.text());
        assertEquals(3, status.body().path("status").path("replicas").asInt());
        assertEquals(3, status.body().path("spec").path("replicas").asInt(), "status writes leave the spec");
    }
}

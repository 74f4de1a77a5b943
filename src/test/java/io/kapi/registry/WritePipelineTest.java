package io.kapi.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The store's one write pipeline, driven through the whole API in memory. */
class WritePipelineTest {

    private static final String CMS = "/api/v1/namespaces/default/configmaps";

    @InMemoryApi
    private static ApiHarness api;
    private static int next;

    private static String fresh() {
        String name = "cm" + next++;
        assertEquals(201, api.post(CMS, "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
                + name + "\"},\"data\":{\"a\":\"1\"}}").code());
        return name;
    }

    @Test
    @DisplayName("16 clients × 25 unconditional merge patches of one object all succeed and every key is there")
    void contendedMergePatches() throws Exception {
        String name = fresh();
        int clients = 16;
        int each = 25;
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Future<List<Integer>>> results = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            int client = c;
            results.add(pool.submit(() -> {
                List<Integer> codes = new ArrayList<>();
                for (int i = 0; i < each; i++) {
                    codes.add(api.patch(CMS + "/" + name, "application/merge-patch+json",
                            "{\"data\":{\"k" + client + "-" + i + "\":\"v\"}}").code());
                }
                return codes;
            }));
        }
        for (Future<List<Integer>> f : results) {
            assertTrue(f.get().stream().allMatch(code -> code == 200), f.get().toString());
        }
        pool.shutdown();
        JsonNode data = api.get(CMS + "/" + name).body().path("data");
        assertEquals(clients * each + 1, data.size());
    }

    @Test
    @DisplayName("server-side apply with a stale metadata.resourceVersion is a 409 Conflict, and changes nothing")
    void applyHonoursResourceVersion() {
        String name = fresh();
        String stale = api.get(CMS + "/" + name).body().path("metadata").path("resourceVersion").asText();
        assertEquals(200, api.patch(CMS + "/" + name, "application/merge-patch+json", "{\"data\":{\"b\":\"2\"}}").code());
        ApiHarness.Reply reply = api.patch(CMS + "/" + name + "?fieldManager=me&force=true", "application/apply-patch+yaml",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
                        + "\",\"resourceVersion\":\"" + stale + "\"},\"data\":{\"a\":\"lost\"}}");
        assertEquals(409, reply.code(), reply.text());
        assertEquals("Conflict", reply.body().path("reason").asText());
        assertEquals("1", api.get(CMS + "/" + name).body().path("data").path("a").asText());
    }

    @Test
    @DisplayName("an update that changes nothing stores nothing: the resourceVersion stays")
    void noOpUpdate() {
        String name = fresh();
        JsonNode stored = api.get(CMS + "/" + name).body();
        String rv = stored.path("metadata").path("resourceVersion").asText();
        ApiHarness.Reply reply = api.put(CMS + "/" + name, stored.toString());
        assertEquals(200, reply.code(), reply.text());
        assertEquals(rv, reply.body().path("metadata").path("resourceVersion").asText());
        ApiHarness.Reply applied = api.patch(CMS + "/" + name, "application/merge-patch+json", "{\"data\":{\"a\":\"1\"}}");
        assertEquals(rv, applied.body().path("metadata").path("resourceVersion").asText());
    }

    @Test
    @DisplayName("the same server-side apply again stores nothing: a Deployment's resourceVersion and generation stay")
    void repeatedApplyIsNoOp() {
        String deployments = "/apis/apps/v1/namespaces/default/deployments/again?fieldManager=operator&force=true";
        String body = "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"again\"},"
                + "\"spec\":{\"replicas\":2,\"selector\":{\"matchLabels\":{\"app\":\"a\"}},\"template\":{\"metadata\":"
                + "{\"labels\":{\"app\":\"a\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}}}";
        ApiHarness.Reply first = api.patch(deployments, "application/apply-patch+yaml", body);
        assertEquals(201, first.code(), first.text());
        for (int i = 0; i < 2; i++) {
            ApiHarness.Reply again = api.patch(deployments, "application/apply-patch+yaml", body);
            assertEquals(200, again.code(), again.text());
            assertEquals(first.body().path("metadata").path("resourceVersion").asText(),
                    again.body().path("metadata").path("resourceVersion").asText(), "apply " + (i + 2));
            assertEquals(1, again.body().path("metadata").path("generation").asLong());
        }
    }

    @Test
    @DisplayName("PUT of status records managed fields for the status subresource")
    void statusPutTracksFields() {
        String pods = "/api/v1/namespaces/default/pods";
        assertEquals(201, api.post(pods, "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"sp\"},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}").code());
        JsonNode pod = api.get(pods + "/sp").body();
        ((com.fasterxml.jackson.databind.node.ObjectNode) pod.path("status")).put("message", "hello");
        ApiHarness.Reply reply = api.call("PUT", pods + "/sp/status?fieldManager=kubelet", "application/json",
                pod.toString());
        assertEquals(200, reply.code(), reply.text());
        boolean tracked = false;
        for (JsonNode entry : reply.body().path("metadata").path("managedFields")) {
            tracked |= entry.path("manager").asText().equals("kubelet")
                    && entry.path("subresource").asText().equals("status")
                    && entry.path("fieldsV1").path("f:status").has("f:message");
        }
        assertTrue(tracked, reply.body().path("metadata").path("managedFields").toString());
    }

    @Test
    @DisplayName("dry run runs every stage and stores nothing")
    void dryRun() {
        ApiHarness.Reply reply = api.call("POST", CMS + "?dryRun=All", "application/json",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"dry\"}}");
        assertEquals(201, reply.code(), reply.text());
        assertEquals(404, api.get(CMS + "/dry").code());
        ApiHarness.Reply invalid = api.call("POST", CMS + "?dryRun=All", "application/json",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"Bad_Name\"}}");
        assertEquals(422, invalid.code());
    }

    /** A request as the admin with an Accept header the server cannot serve. */
    private static ApiHarness.Reply bogusAccept(String method, String path, String contentType, String body) {
        return api.call(ApiHarness.ADMIN, method, path, contentType, "application/bogus", body);
    }

    @Test
    @DisplayName("a write answered 406 Not Acceptable changes nothing, whatever its verb or subresource")
    void notAcceptableWritesNothing() {
        String name = fresh();
        String object = CMS + "/" + name;
        String created = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"n406\"}}";
        assertEquals(406, bogusAccept("POST", CMS, "application/json", created).code());
        assertEquals(404, api.get(CMS + "/n406").code());
        assertEquals(406, bogusAccept("PATCH", CMS + "/n406?fieldManager=x", "application/apply-patch+yaml", created).code());
        assertEquals(404, api.get(CMS + "/n406").code());
        String rv = api.get(object).body().path("metadata").path("resourceVersion").asText();
        assertEquals(406, bogusAccept("PUT", object, "application/json", "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
                + "\"metadata\":{\"name\":\"" + name + "\"},\"data\":{\"a\":\"put\"}}").code());
        assertEquals(406, bogusAccept("PATCH", object, "application/merge-patch+json", "{\"data\":{\"a\":\"merge\"}}").code());
        assertEquals(406, bogusAccept("PATCH", object + "?fieldManager=x&force=true", "application/apply-patch+yaml",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
                        + "\"},\"data\":{\"a\":\"apply\"}}").code());
        assertEquals(406, bogusAccept("DELETE", object, null, "").code());
        assertEquals(406, bogusAccept("DELETE", CMS, null, "").code());
        JsonNode after = api.get(object).body();
        assertEquals(rv, after.path("metadata").path("resourceVersion").asText());
        assertEquals("1", after.path("data").path("a").asText());

        String pods = "/api/v1/namespaces/default/pods";
        assertEquals(201, api.post(pods, "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p406\"},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}").code());
        JsonNode pod = api.get(pods + "/p406").body();
        ((com.fasterxml.jackson.databind.node.ObjectNode) pod.path("status")).put("message", "hello");
        assertEquals(406, bogusAccept("PUT", pods + "/p406/status", "application/json", pod.toString()).code());
        assertEquals(406, bogusAccept("POST", pods + "/p406/binding", "application/json",
                "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"p406\"},"
                        + "\"target\":{\"kind\":\"Node\",\"name\":\"n1\"}}").code());
        assertEquals(406, bogusAccept("POST", pods + "/p406/eviction", "application/json",
                "{\"apiVersion\":\"policy/v1\",\"kind\":\"Eviction\",\"metadata\":{\"name\":\"p406\"}}").code());
        JsonNode podAfter = api.get(pods + "/p406").body();
        assertEquals(pod.path("metadata").path("resourceVersion"), podAfter.path("metadata").path("resourceVersion"));
        assertTrue(podAfter.path("spec").path("nodeName").isMissingNode(), podAfter.toString());
    }

    @Test
    @DisplayName("server-side apply with metadata.resourceVersion creates a missing object (201), as kube-apiserver")
    void applyCreatesWithResourceVersion() {
        ApiHarness.Reply reply = api.patch(CMS + "/applied-rv?fieldManager=x&force=true", "application/apply-patch+yaml",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"applied-rv\","
                        + "\"namespace\":\"default\",\"resourceVersion\":\"1\"},\"data\":{\"a\":\"b\"}}");
        assertEquals(201, reply.code(), reply.text());
        assertEquals("b", api.get(CMS + "/applied-rv").body().path("data").path("a").asText());
        ApiHarness.Reply again = api.patch(CMS + "/applied-rv?fieldManager=x&force=true", "application/apply-patch+yaml",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"applied-rv\","
                        + "\"resourceVersion\":\"1\"},\"data\":{\"a\":\"c\"}}");
        assertEquals(409, again.code(), again.text());
        ApiHarness.Reply put = api.put(CMS + "/put-rv", "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
                + "\"metadata\":{\"name\":\"put-rv\",\"resourceVersion\":\"1\"}}");
        assertEquals(404, put.code(), put.text());
    }

    @Test
    @DisplayName("delete with a stale uid or resourceVersion precondition is 409 on the kind, worded as kube's BeforeDelete")
    void deletePreconditions() {
        String name = fresh();
        JsonNode meta = api.get(CMS + "/" + name).body().path("metadata");
        String uid = meta.path("uid").asText();
        String rv = meta.path("resourceVersion").asText();
        ApiHarness.Reply staleUid = api.call("DELETE", CMS + "/" + name, "application/json",
                "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"preconditions\":{\"uid\":\"00000000-0000-0000-0000-000000000000\"}}");
        assertEquals(409, staleUid.code(), staleUid.text());
        assertEquals("Operation cannot be fulfilled on ConfigMap \"" + name + "\": the UID in the precondition "
                + "(00000000-0000-0000-0000-000000000000) does not match the UID in record (" + uid + "). The object "
                + "might have been deleted and then recreated", staleUid.body().path("message").asText());
        assertEquals("ConfigMap", staleUid.body().at("/details/kind").asText());
        ApiHarness.Reply staleRv = api.call("DELETE", CMS + "/" + name, "application/json",
                "{\"preconditions\":{\"resourceVersion\":\"1\"}}");
        assertEquals(409, staleRv.code(), staleRv.text());
        assertEquals("Operation cannot be fulfilled on ConfigMap \"" + name + "\": the ResourceVersion in the "
                + "precondition (1) does not match the ResourceVersion in record (" + rv + "). The object might have "
                + "been modified", staleRv.body().path("message").asText());
        String deployments = "/apis/apps/v1/namespaces/default/deployments";
        assertEquals(201, api.post(deployments, "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":"
                + "{\"name\":\"pre\"},\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}},\"template\":{\"metadata\":"
                + "{\"labels\":{\"a\":\"b\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}}}").code());
        ApiHarness.Reply grouped = api.call("DELETE", deployments + "/pre", "application/json",
                "{\"preconditions\":{\"uid\":\"u\"}}");
        assertTrue(grouped.body().path("message").asText().startsWith("Operation cannot be fulfilled on Deployment.apps "
                + "\"pre\": the UID in the precondition (u)"), grouped.text());
        assertEquals("apps", grouped.body().at("/details/group").asText());
        assertEquals(200, api.call("DELETE", CMS + "/" + name, "application/json",
                "{\"preconditions\":{\"uid\":\"" + uid + "\",\"resourceVersion\":\"" + rv + "\"}}").code());
    }

    @Test
    @DisplayName("an update whose body names another uid is 409, the storage's precondition as kube words it, not 422")
    void updateUidPrecondition() {
        String name = fresh();
        String uid = api.get(CMS + "/" + name).body().at("/metadata/uid").asText();
        String other = "88e00824-7f0e-11e8-94a1-c8d3ffb15800";
        ApiHarness.Reply stale = api.put(CMS + "/" + name, "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":"
                + "{\"name\":\"" + name + "\",\"uid\":\"" + other + "\"},\"data\":{\"a\":\"2\"}}");
        assertEquals(409, stale.code(), stale.text());
        assertEquals("Operation cannot be fulfilled on configmaps \"" + name + "\": StorageError: invalid object, Code: 4, "
                + "Key: /registry/configmaps/default/" + name + ", ResourceVersion: 0, AdditionalErrorMsg: Precondition "
                + "failed: UID in precondition: " + other + ", UID in object meta: " + uid,
                stale.body().path("message").asText());
        assertEquals("1", api.get(CMS + "/" + name).body().at("/data/a").asText());
        ApiHarness.Reply same = api.put(CMS + "/" + name, "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":"
                + "{\"name\":\"" + name + "\",\"uid\":\"" + uid + "\"},\"data\":{\"a\":\"2\"}}");
        assertEquals(200, same.code(), same.text());

        String pods = "/api/v1/namespaces/default/pods";
        assertEquals(201, api.post(pods, "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"uidp\"},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}").code());
        JsonNode pod = api.get(pods + "/uidp").body();
        ((com.fasterxml.jackson.databind.node.ObjectNode) pod.path("metadata")).put("uid", other);
        ApiHarness.Reply status = api.put(pods + "/uidp/status", pod.toString());
        assertEquals(409, status.code(), status.text());
        assertTrue(status.body().path("message").asText().contains("Key: /registry/pods/default/uidp, ResourceVersion: 0, "
                + "AdditionalErrorMsg: Precondition failed: UID in precondition: " + other), status.text());
    }
}

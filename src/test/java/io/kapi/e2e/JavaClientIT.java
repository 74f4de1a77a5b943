package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.net.http.HttpClient;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A plain java.net.http client with the admin client certificate: CRUD over HTTP/2 and Status bodies. */
@DisplayName("Java HTTP/2 client")
@Timeout(value = 3, unit = TimeUnit.MINUTES) // a hung request or watch fails one test, not the suite
final class JavaClientIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension();

    static final String CMS = "/api/v1/namespaces/default/configmaps";
    static ApiClient client;

    @BeforeAll
    static void connect() {
        client = KAPI.client();
    }

    @AfterAll
    static void disconnect() {
        client.close();
    }

    private static String configMap(String name, String value) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\"},"
                + "\"data\":{\"k\":\"" + value + "\"}}";
    }

    /** Asserts a metav1.Status failure body and returns it. */
    private static JsonNode status(ApiClient.Response r, int code, String reason, String message) {
        assertEquals(code, r.status(), r.toString());
        JsonNode s = r.json();
        assertEquals("Status", s.path("kind").asText(), r.toString());
        assertEquals("v1", s.path("apiVersion").asText(), r.toString());
        assertEquals("Failure", s.path("status").asText(), r.toString());
        assertEquals(reason, s.path("reason").asText(), r.toString());
        assertEquals(code, s.path("code").asInt(), r.toString());
        if (message != null) {
            assertEquals(message, s.path("message").asText(), r.toString());
        }
        return s;
    }

    @Test
    @DisplayName("create, get, list, update, delete a configmap over HTTP/2")
    void crud() {
        ApiClient.Response created = client.post(CMS, configMap("j1", "one"));
        assertEquals(201, created.status(), created.toString());
        assertEquals(HttpClient.Version.HTTP_2, created.version(), "ALPN negotiates h2");
        JsonNode obj = created.json();
        assertEquals("ConfigMap", obj.path("kind").asText());
        assertEquals("v1", obj.path("apiVersion").asText());
        assertEquals("default", obj.path("metadata").path("namespace").asText());
        String rv = obj.path("metadata").path("resourceVersion").asText();

        ApiClient.Response got = client.get(CMS + "/j1");
        assertEquals(200, got.status(), got.toString());
        assertEquals(obj, got.json(), "get returns what create returned");

        ApiClient.Response list = client.get(CMS);
        assertEquals(200, list.status(), list.toString());
        assertEquals("ConfigMapList", list.json().path("kind").asText());
        assertEquals("v1", list.json().path("apiVersion").asText());
        assertTrue(list.json().path("metadata").path("resourceVersion").asText().matches("\\d+"), list.toString());
        assertTrue(list.json().path("items").findValuesAsText("name").contains("j1"), list.toString());

        ObjectNode changed = (ObjectNode) obj.deepCopy();
        changed.withObjectProperty("data").put("k", "two");
        ApiClient.Response updated = client.put(CMS + "/j1", changed.toString());
        assertEquals(200, updated.status(), updated.toString());
        assertEquals("two", updated.json().path("data").path("k").asText());
        assertTrue(Long.parseLong(updated.json().path("metadata").path("resourceVersion").asText()) > Long.parseLong(rv));

        ApiClient.Response deleted = client.delete(CMS + "/j1");
        assertEquals(200, deleted.status(), deleted.toString());
        JsonNode s = deleted.json();
        assertEquals("Status", s.path("kind").asText(), deleted.toString());
        assertEquals("Success", s.path("status").asText(), deleted.toString());
        assertEquals("j1", s.path("details").path("name").asText(), deleted.toString());
        assertEquals("configmaps", s.path("details").path("kind").asText(), deleted.toString());
        assertEquals(obj.path("metadata").path("uid").asText(), s.path("details").path("uid").asText(), deleted.toString());
        status(client.get(CMS + "/j1"), 404, "NotFound", "configmaps \"j1\" not found");
    }

    @Test
    @DisplayName("get of a missing object: 404 NotFound Status with details name and kind")
    void notFound() {
        JsonNode s = status(client.get(CMS + "/nope"), 404, "NotFound", "configmaps \"nope\" not found");
        assertEquals("nope", s.path("details").path("name").asText());
        assertEquals("configmaps", s.path("details").path("kind").asText());
    }

    @Test
    @DisplayName("a group resource's NotFound names the group in details and message")
    void notFoundInGroup() {
        JsonNode s = status(client.get("/apis/apps/v1/namespaces/default/deployments/nope"), 404, "NotFound",
                "deployments.apps \"nope\" not found");
        assertEquals("apps", s.path("details").path("group").asText());
        assertEquals("deployments", s.path("details").path("kind").asText());
    }

    @Test
    @DisplayName("create twice: 409 AlreadyExists")
    void alreadyExists() {
        assertEquals(201, client.post(CMS, configMap("dup", "a")).status());
        JsonNode s = status(client.post(CMS, configMap("dup", "a")), 409, "AlreadyExists",
                "configmaps \"dup\" already exists");
        assertEquals("dup", s.path("details").path("name").asText());
        assertEquals("configmaps", s.path("details").path("kind").asText());
    }

    @Test
    @DisplayName("update with a stale resourceVersion: 409 Conflict")
    void conflict() {
        JsonNode obj = client.post(CMS, configMap("cas", "a")).json();
        ObjectNode first = (ObjectNode) obj.deepCopy();
        first.withObjectProperty("data").put("k", "b");
        assertEquals(200, client.put(CMS + "/cas", first.toString()).status());
        ObjectNode stale = (ObjectNode) obj.deepCopy();
        stale.withObjectProperty("data").put("k", "c");
        JsonNode s = status(client.put(CMS + "/cas", stale.toString()), 409, "Conflict",
                "Operation cannot be fulfilled on configmaps \"cas\": the object has been modified; please apply your "
                        + "changes to the latest version and try again");
        assertEquals("cas", s.path("details").path("name").asText());
        assertEquals("configmaps", s.path("details").path("kind").asText());
    }

    @Test
    @DisplayName("an invalid name: 422 Invalid with a FieldValueInvalid cause on metadata.name")
    void invalid() {
        JsonNode s = status(client.post(CMS, configMap("Bad_Name", "a")), 422, "Invalid", null);
        assertTrue(s.path("message").asText().startsWith("ConfigMap \"Bad_Name\" is invalid: metadata.name: Invalid value: "
                + "\"Bad_Name\": a lowercase RFC 1123 subdomain"), s.toString());
        assertEquals("Bad_Name", s.path("details").path("name").asText());
        assertEquals("ConfigMap", s.path("details").path("kind").asText());
        JsonNode cause = s.path("details").path("causes").path(0);
        assertEquals("FieldValueInvalid", cause.path("reason").asText(), s.toString());
        assertEquals("metadata.name", cause.path("field").asText(), s.toString());
        assertTrue(cause.path("message").asText().startsWith("Invalid value: \"Bad_Name\": "), s.toString());
    }

    @Test
    @DisplayName("malformed JSON: 400 BadRequest")
    void malformed() {
        status(client.post(CMS, "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{"), 400, "BadRequest", null);
    }

    @Test
    @DisplayName("create in a missing namespace: 404 NotFound naming the namespace")
    void missingNamespace() {
        JsonNode s = status(client.post("/api/v1/namespaces/x/configmaps", configMap("c", "a")), 404, "NotFound",
                "namespaces \"x\" not found");
        assertEquals("x", s.path("details").path("name").asText());
        assertEquals("namespaces", s.path("details").path("kind").asText());
    }

    @Test
    @DisplayName("a body over 3 MiB: 413 RequestEntityTooLarge")
    void tooLarge() {
        status(client.post(CMS, configMap("huge", "x".repeat(3 * 1024 * 1024 + 1))), 413, "RequestEntityTooLarge",
                "Request entity too large: limit is 3145728");
    }

    @Test
    @DisplayName("a Content-Type the server cannot decode: 415 UnsupportedMediaType")
    void unsupportedMediaType() {
        status(client.send("POST", CMS, configMap("t", "a"), "text/plain"), 415, "UnsupportedMediaType", null);
    }

    /**
     * kube-apiserver answers 401 to a request without credentials when anonymous authentication is off (it
     * is forced off with the AlwaysAllow authorizer); with it on and RBAC, system:anonymous gets 403 instead.
     * Kapi takes the first (the lead's brief); the public health and version paths stay open either way.
     */
    @Test
    @DisplayName("no client certificate: 401 Unauthorized Status from resources; /readyz, /livez and /version still open")
    void anonymous() {
        try (ApiClient anonymous = ApiClient.anonymous(KAPI.kapi().kubeconfig(), Map.of())) {
            status(anonymous.get(CMS), 401, "Unauthorized", "Unauthorized");
            status(anonymous.post(CMS, configMap("anon", "a")), 401, "Unauthorized", "Unauthorized");
            assertEquals(200, anonymous.get("/readyz").status());
            assertEquals(200, anonymous.get("/livez").status());
            assertEquals(200, anonymous.get("/version").status());
        }
    }

    @Test
    @DisplayName("an invalid bearer token: 401 Unauthorized Status")
    void unauthorized() {
        try (ApiClient bad = ApiClient.anonymous(KAPI.kapi().kubeconfig(), Map.of("Authorization", "Bearer not-a-token"))) {
            status(bad.get(CMS), 401, "Unauthorized", "Unauthorized");
        }
    }

    @Test
    @DisplayName("discovery over HTTP/2: /api lists v1, /apis lists groups with preferred versions")
    void discovery() {
        ApiClient.Response api = client.get("/api");
        assertEquals(200, api.status(), api.toString());
        assertEquals("APIVersions", api.json().path("kind").asText());
        assertEquals("v1", api.json().path("versions").path(0).asText());
        ApiClient.Response apis = client.get("/apis");
        assertEquals("APIGroupList", apis.json().path("kind").asText(), apis.toString());
        assertTrue(apis.json().path("groups").findValuesAsText("name").contains("apps"), apis.toString());
        ApiClient.Response core = client.get("/api/v1");
        assertEquals("APIResourceList", core.json().path("kind").asText(), core.toString());
        assertEquals("v1", core.json().path("groupVersion").asText(), core.toString());
    }

    @Test
    @DisplayName("a dry-run create validates and answers 201 without storing")
    void dryRun() {
        ApiClient.Response r = client.post(CMS + "?dryRun=All", configMap("dry", "a"));
        assertEquals(201, r.status(), r.toString());
        status(client.get(CMS + "/dry"), 404, "NotFound", "configmaps \"dry\" not found");
    }

    @Test
    @DisplayName("generateName gives a unique suffixed name")
    void generateName() {
        String body = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"generateName\":\"gen-\"}}";
        ApiClient.Response r = client.post(CMS, body);
        assertEquals(201, r.status(), r.toString());
        assertTrue(r.json().path("metadata").path("name").asText().matches("gen-[a-z0-9]{5}"), r.toString());
    }

    @Test
    @DisplayName("fieldValidation=Strict on the wire: 400 naming the unknown field; Warn: 201 with a Warning header")
    void fieldValidation() {
        String body = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"fv\"},\"bogus\":1}";
        status(client.post(CMS + "?fieldValidation=Strict", body), 400, "BadRequest",
                "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: strict decoding error: unknown field \"bogus\"");
        ApiClient.Response warned = client.post(CMS + "?fieldValidation=Warn", body);
        assertEquals(201, warned.status(), warned.toString());
        assertEquals(1, warned.warnings().size(), warned.warnings().toString());
        assertEquals("299 - \"unknown field \\\"bogus\\\"\"", warned.warnings().getFirst());
    }

    @Test
    @DisplayName("list with limit pages with continue tokens")
    void paging() {
        for (int i = 0; i < 5; i++) {
            assertEquals(201, client.post("/api/v1/namespaces/kube-public/configmaps", configMap("page-" + i, "v")).status());
        }
        int seen = 0;
        String cont = "";
        int pages = 0;
        do {
            ApiClient.Response r = client.get("/api/v1/namespaces/kube-public/configmaps?limit=2"
                    + (cont.isEmpty() ? "" : "&continue=" + cont));
            assertEquals(200, r.status(), r.toString());
            seen += r.json().path("items").size();
            cont = r.json().path("metadata").path("continue").asText("");
            pages++;
        } while (!cont.isEmpty() && pages < 10);
        assertTrue(seen >= 5 && pages >= 3, "seen " + seen + " in " + pages + " pages");
    }

    @Test
    @DisplayName("watch from a resourceVersion streams MODIFIED and DELETED events as JSON lines")
    void watch() throws Exception {
        JsonNode created = client.post(CMS, configMap("watched", "a")).json();
        String rv = created.path("metadata").path("resourceVersion").asText();
        BlockingQueue<JsonNode> events = new LinkedBlockingQueue<>();
        Thread reader = Thread.ofVirtual().start(() -> client.stream(CMS + "?watch=true&timeoutSeconds=20"
                + "&fieldSelector=metadata.name%3Dwatched&resourceVersion=" + rv, line -> events.add(parseLine(line))));
        try {
            ObjectNode changed = (ObjectNode) created.deepCopy();
            changed.withObjectProperty("data").put("k", "b");
            assertEquals(200, client.put(CMS + "/watched", changed.toString()).status());
            assertEquals(200, client.delete(CMS + "/watched").status());
            JsonNode first = events.poll(10, TimeUnit.SECONDS);
            JsonNode second = events.poll(10, TimeUnit.SECONDS);
            assertEquals("MODIFIED", first == null ? null : first.path("type").asText(), "first event: " + first);
            assertEquals("b", first.path("object").path("data").path("k").asText(), first.toString());
            assertEquals("ConfigMap", first.path("object").path("kind").asText(), first.toString());
            assertEquals("DELETED", second == null ? null : second.path("type").asText(), "second event: " + second);
        } finally {
            reader.interrupt();
        }
    }

    /** Parses one line of a watch stream. */
    private static JsonNode parseLine(String line) {
        try {
            return Json.MAPPER.readTree(line);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + line, e);
        }
    }
}

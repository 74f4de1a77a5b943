package io.kapi.endpoint.openapi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.resource.ResourceTable;
import io.kapi.machinery.schema.Schemas;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class OpenApiHandlerTest {

    private static OpenApiHandler handler;

    @BeforeAll
    static void setUp() {
        long t0 = System.nanoTime();
        Schemas schemas = Schemas.load();
        long t1 = System.nanoTime();
        handler = new OpenApiHandler(ResourceTable.builtin(), schemas, "v1.34.0");
        handler.handle(get("/openapi/v3"));
        long t2 = System.nanoTime();
        handler.handle(get("/openapi/v2"));
        long t3 = System.nanoTime();
        System.out.printf("start-up: schemas %d ms, openapi v3 (all group-versions) %d ms, v2 %d ms%n",
                (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, (t3 - t2) / 1_000_000);
    }

    static RestRequest get(String path, String... headers) {
        Map<String, List<String>> h = new HashMap<>();
        for (int i = 0; i < headers.length; i += 2) {
            h.put(headers[i].toLowerCase(), List.of(headers[i + 1]));
        }
        Map<String, List<String>> query = new HashMap<>();
        int q = path.indexOf('?');
        if (q >= 0) {
            for (String kv : path.substring(q + 1).split("&")) {
                String[] parts = kv.split("=", 2);
                query.put(parts[0], List.of(parts[1]));
            }
            path = path.substring(0, q);
        }
        return new RestRequest("GET", path, query, h, InputStream.nullInputStream(), null);
    }

    static JsonNode body(RestResponse response) throws IOException {
        return Json.MAPPER.readTree(((RestResponse.Bytes) response.body()).data());
    }

    static String header(RestResponse response, String name) {
        return response.headers().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                .map(Map.Entry::getValue).findFirst().orElse(null);
    }

    /** Every $ref (a textual one: JSONSchemaProps has a property called "$ref") under node. */
    static List<String> refs(JsonNode node) {
        List<String> out = new ArrayList<>();
        collect(node, out);
        return out;
    }

    private static void collect(JsonNode node, List<String> out) {
        if (node.isObject()) {
            node.properties().forEach(e -> {
                if (e.getKey().equals("$ref") && e.getValue().isTextual()) {
                    out.add(e.getValue().asText());
                } else {
                    collect(e.getValue(), out);
                }
            });
        } else if (node.isArray()) {
            node.forEach(n -> collect(n, out));
        }
    }

    private static JsonNode appsV1() throws IOException {
        JsonNode index = body(handler.handle(get("/openapi/v3")));
        String url = index.at("/paths/apis~1apps~1v1/serverRelativeURL").asText();
        return body(handler.handle(get(url)));
    }

    @Test
    @DisplayName("the v3 index lists every served group-version with a hashed server-relative URL")
    void index() throws IOException {
        JsonNode paths = body(handler.handle(get("/openapi/v3"))).get("paths");
        assertTrue(paths.get("api/v1").get("serverRelativeURL").asText().startsWith("/openapi/v3/api/v1?hash="));
        assertTrue(paths.has("apis/apps/v1"));
        assertTrue(paths.has("apis/resource.k8s.io/v1"));
        for (String key : List.of("api", "apis", "apis/apps", "apis/resource.k8s.io", "version")) {
            assertTrue(paths.has(key), key);
        }
        long groups = ResourceTable.builtin().groupVersions().stream().map(gv -> gv.group())
                .filter(g -> !g.isEmpty()).distinct().count();
        assertEquals(ResourceTable.builtin().groupVersions().size() + groups + 3, paths.size());
        JsonNode group = body(handler.handle(get(paths.at("/apis~1apps/serverRelativeURL").asText())));
        assertEquals("getAppsAPIGroup", group.at("/paths/~1apis~1apps~1/get/operationId").asText());
        assertTrue(group.at("/components/schemas").has("io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup"));
    }

    @Test
    @DisplayName("apps/v1 v3 document: Deployment with its GVK marker, patch extensions kept, refs resolvable")
    void appsDocument() throws IOException {
        JsonNode doc = appsV1();
        assertEquals("3.0.0", doc.get("openapi").asText());
        JsonNode schemas = doc.at("/components/schemas");
        JsonNode deployment = schemas.get("io.k8s.api.apps.v1.Deployment");
        assertNotNull(deployment);
        JsonNode marker = deployment.get("x-kubernetes-group-version-kind").get(0);
        assertEquals("apps", marker.get("group").asText());
        assertEquals("v1", marker.get("version").asText());
        assertEquals("Deployment", marker.get("kind").asText());
        assertFalse(deployment.has("x-fabric8-info"));
        JsonNode containers = schemas.at("/io.k8s.api.core.v1.PodSpec/properties/containers");
        assertEquals("name", containers.get("x-kubernetes-patch-merge-key").asText());
        assertEquals("merge", containers.get("x-kubernetes-patch-strategy").asText());
        assertEquals("map", containers.get("x-kubernetes-list-type").asText());
        assertEquals("#/components/schemas/io.k8s.api.apps.v1.DeploymentSpec",
                deployment.at("/properties/spec/allOf/0/$ref").asText());
        for (String ref : refs(doc)) {
            assertTrue(ref.startsWith("#/components/schemas/"), ref);
            assertTrue(schemas.has(ref.substring("#/components/schemas/".length())), ref);
        }
        assertTrue(schemas.has("io.k8s.api.autoscaling.v1.Scale"));
        JsonNode watchEvent = schemas.at("/io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent/x-kubernetes-group-version-kind");
        assertTrue(watchEvent.toString().contains("\"group\":\"apps\""), watchEvent.toString());
    }

    @Test
    @DisplayName("every PATCH operation carries its GVK and the fieldValidation parameter (kubectl's validation probe)")
    void patchOperations() throws IOException {
        JsonNode paths = appsV1().get("paths");
        JsonNode patch = paths.at("/~1apis~1apps~1v1~1namespaces~1{namespace}~1deployments~1{name}/patch");
        assertEquals("patch", patch.get("x-kubernetes-action").asText());
        assertEquals("patchAppsV1NamespacedDeployment", patch.get("operationId").asText());
        int patches = 0;
        for (JsonNode item : paths) {
            JsonNode op = item.get("patch");
            if (op == null) {
                continue;
            }
            patches++;
            assertTrue(op.has("x-kubernetes-group-version-kind"));
            boolean found = false;
            for (JsonNode p : op.get("parameters")) {
                found |= p.get("name").asText().equals("fieldValidation") && p.get("in").asText().equals("query");
            }
            assertTrue(found, op.get("operationId").asText());
        }
        assertTrue(patches >= 10);
        JsonNode scale = paths.at("/~1apis~1apps~1v1~1namespaces~1{namespace}~1deployments~1{name}~1scale/get");
        assertEquals("Scale", scale.at("/x-kubernetes-group-version-kind/kind").asText());
        assertEquals("autoscaling", scale.at("/x-kubernetes-group-version-kind/group").asText());
    }

    @Test
    @DisplayName("apiextensions and apiregistration documents carry CRD and APIService from the extra definitions")
    void extraKinds() throws IOException {
        JsonNode index = body(handler.handle(get("/openapi/v3")));
        JsonNode crd = body(handler.handle(get(index.at("/paths/apis~1apiextensions.k8s.io~1v1/serverRelativeURL").asText())));
        assertEquals("CustomResourceDefinition", crd.at(
                "/components/schemas/io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition"
                        + "/x-kubernetes-group-version-kind/0/kind").asText());
        JsonNode apiService = body(handler.handle(get("/openapi/v3/apis/apiregistration.k8s.io/v1")));
        assertTrue(apiService.at("/components/schemas").has("io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService"));
    }

    @Test
    @DisplayName("a client that accepts gzip gets the document gzipped, the same bytes and ETag as one that does not")
    void gzip() throws IOException {
        for (String path : List.of("/openapi/v2", "/openapi/v3/apis/apps/v1", "/openapi/v3")) {
            RestResponse plain = handler.handle(get(path));
            RestResponse zipped = handler.handle(get(path, "Accept-Encoding", "gzip, deflate, br"));
            assertEquals(200, zipped.status(), path);
            assertNull(header(plain, "Content-Encoding"), path);
            assertEquals("gzip", header(zipped, "Content-Encoding"), path);
            assertEquals("Accept-Encoding", header(zipped, "Vary"), path);
            assertEquals(header(plain, "ETag"), header(zipped, "ETag"), path);
            byte[] data = ((RestResponse.Bytes) plain.body()).data();
            byte[] gz = ((RestResponse.Bytes) zipped.body()).data();
            if (data.length > 100_000) {
                assertTrue(gz.length < data.length / 4, path + ": " + gz.length + " of " + data.length);
            }
            try (var in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(gz))) {
                assertArrayEquals(data, in.readAllBytes(), path);
            }
        }
        RestResponse refused = handler.handle(get("/openapi/v2", "Accept-Encoding", "gzip;q=0, identity"));
        assertNull(header(refused, "Content-Encoding"));
        assertEquals("2.0", body(refused).get("swagger").asText());
    }

    @Test
    @DisplayName("Accept-Encoding: gzip and * with a quality above 0 accept gzip; q=0, identity or none do not")
    void acceptsGzip() {
        assertTrue(OpenApiAccept.acceptsGzip("gzip"));
        assertTrue(OpenApiAccept.acceptsGzip("deflate, GZIP;q=0.5"));
        assertTrue(OpenApiAccept.acceptsGzip("*"));
        assertFalse(OpenApiAccept.acceptsGzip(null));
        assertFalse(OpenApiAccept.acceptsGzip("identity"));
        assertFalse(OpenApiAccept.acceptsGzip("gzip;q=0"));
        assertFalse(OpenApiAccept.acceptsGzip("gzip; q=0.0, br"));
        assertFalse(OpenApiAccept.acceptsGzip("gzip;q=x"));
    }

    @Test
    @DisplayName("a matching hash is immutable, a stale one is redirected, If-None-Match gets 304")
    void caching() throws IOException {
        JsonNode index = body(handler.handle(get("/openapi/v3")));
        String url = index.at("/paths/api~1v1/serverRelativeURL").asText();
        RestResponse ok = handler.handle(get(url));
        assertEquals(200, ok.status());
        assertEquals("public, immutable", header(ok, "Cache-Control"));
        assertNotNull(header(ok, "Expires"));
        String etag = header(ok, "ETag");
        assertEquals('"' + url.substring(url.indexOf("hash=") + 5) + '"', etag);
        assertEquals(304, handler.handle(get("/openapi/v3/api/v1", "If-None-Match", etag)).status());
        RestResponse stale = handler.handle(get("/openapi/v3/api/v1?hash=0123"));
        assertEquals(301, stale.status());
        assertEquals(url, header(stale, "Location"));
    }

    @Test
    @DisplayName("v2: Swagger 2.0 with GVK markers, generated paths and resolvable refs")
    void swagger() throws IOException {
        RestResponse r = handler.handle(get("/openapi/v2", "Accept", "application/json"));
        JsonNode doc = body(r);
        assertEquals("2.0", doc.get("swagger").asText());
        JsonNode defs = doc.get("definitions");
        assertEquals("Pod", defs.at("/io.k8s.api.core.v1.Pod/x-kubernetes-group-version-kind/0/kind").asText());
        assertEquals("list", doc.at("/paths/~1api~1v1~1pods/get/x-kubernetes-action").asText());
        assertEquals("getCodeVersion", doc.at("/paths/~1version~1/get/operationId").asText());
        assertEquals("connect", doc.at("/paths/~1api~1v1~1namespaces~1{namespace}~1pods~1{name}~1exec/post/x-kubernetes-action").asText());
        for (String ref : refs(doc)) {
            assertTrue(defs.has(ref.substring("#/definitions/".length())), ref);
        }
        assertEquals(304, handler.handle(get("/openapi/v2", "If-None-Match", header(r, "ETag"))).status());
    }

    @Test
    @DisplayName("v2 as gnostic protobuf for kubectl, labelled application/octet-stream; text/html only is 406")
    void swaggerProtobuf() {
        RestResponse r = handler.handle(get("/openapi/v2", "Accept", OpenApiAccept.PROTOBUF));
        assertEquals(200, r.status());
        RestResponse.Bytes body = (RestResponse.Bytes) r.body();
        assertEquals("application/octet-stream", body.contentType());
        byte[] data = body.data();
        // field 1 (swagger), length-delimited, "2.0"
        assertEquals(0x0A, data[0]);
        assertEquals(3, data[1]);
        assertEquals("2.0", new String(data, 2, 3, java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals("application/json", ((RestResponse.Bytes) handler.handle(get("/openapi/v2", "Accept",
                OpenApiAccept.PROTOBUF + ";q=0.5, application/json")).body()).contentType());
        ApiException e = assertThrows(ApiException.class,
                () -> handler.handle(get("/openapi/v2", "Accept", "text/html")));
        assertEquals(406, e.code());
    }

    @Test
    @DisplayName("a malformed Accept header (only separators) is 406, never a server error")
    void malformedAccept() {
        for (String accept : new String[] {";;", ",", ";,;", ";q=1"}) {
            ApiException e = assertThrows(ApiException.class,
                    () -> handler.handle(get("/openapi/v3/api/v1", "Accept", accept)), accept);
            assertEquals(406, e.code(), accept);
            assertEquals(406, assertThrows(ApiException.class,
                    () -> handler.handle(get("/openapi/v2", "Accept", accept)), accept).code(), accept);
        }
    }

    @Test
    @DisplayName("unknown documents are 404 and other paths are left to the next handler")
    void routing() {
        assertThrows(ApiException.class, () -> handler.handle(get("/openapi/v3/apis/example.com/v1")));
        assertNull(handler.handle(get("/apis")));
    }

    @Test
    @DisplayName("the v3 index lists aggregated servers' documents, serves them, and follows their changes")
    void externalDocuments() throws IOException {
        Schemas schemas = Schemas.builtin();
        var externals = new java.util.concurrent.atomic.AtomicReference<Map<String, String>>(Map.of(
                "apis/wardle.example.com/v1alpha1", "{\"openapi\":\"3.0.0\",\"paths\":{}}",
                "api/v1", "{\"not\":\"used\"}"));
        OpenApiHandler withExternals = new OpenApiHandler(() -> new OpenApiHandler.Model(0, ResourceTable.builtin(),
                schemas), externals::get, "v1.34.0");
        JsonNode paths = body(withExternals.handle(get("/openapi/v3"))).path("paths");
        String url = paths.path("apis/wardle.example.com/v1alpha1").path("serverRelativeURL").asText();
        assertTrue(url.startsWith("/openapi/v3/apis/wardle.example.com/v1alpha1?hash="), paths.toString());
        assertEquals("3.0.0", body(withExternals.handle(get("/openapi/v3/apis/wardle.example.com/v1alpha1")))
                .path("openapi").asText());
        assertTrue(body(withExternals.handle(get("/openapi/v3/api/v1"))).path("paths").size() > 10,
                "this server's own document wins");
        externals.set(Map.of());
        assertTrue(body(withExternals.handle(get("/openapi/v3"))).path("paths")
                .path("apis/wardle.example.com/v1alpha1").isMissingNode());
    }
}

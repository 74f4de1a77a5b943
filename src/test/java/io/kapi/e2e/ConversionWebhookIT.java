package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kapi.fixtures.Await;
import io.kapi.machinery.Json;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A CRD with conversion strategy Webhook, as a new user tries it with kubectl and fabric8: a real HTTPS
 * conversion webhook on loopback ({@link TestWebhookServer}, a CA of its own in the caBundle) converts
 * between v1 (stored: {@code host} and {@code port}) and v2 ({@code address}) on create, get, list (one
 * ConversionReview for the whole list) and watch; what it adds that the schema lacks is pruned; a webhook
 * that fails, is not there or answers wrong objects gives kube-apiserver's errors.
 */
@DisplayName("CRD conversion webhook with kubectl and fabric8")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
final class ConversionWebhookIT {

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--storage-backend=memory");

    /** A CRD's change reaches the served definitions a moment later: probed for up to a minute. */
    private static final Await CRD_CHANGE = Await.atMost(Duration.ofSeconds(60)).every(Duration.ofMillis(200));
    /** Conversion requests have settled when two reads half a second apart count the same. */
    private static final Await QUIET = Await.atMost(Duration.ofSeconds(10)).every(Duration.ofMillis(500));

    private static final String V2 = "backends.v2.conv.example.com";
    private static TestWebhookServer webhook;

    @BeforeAll
    static void startWebhook() throws Exception {
        webhook = new TestWebhookServer();
        webhook.answer("/convert", review -> answer(review, ConversionWebhookIT::convert));
        webhook.answer("/unconverted", review -> answer(review, (o, to) -> o));
        webhook.answer("/refuse", review -> {
            ObjectNode a = answer(review, (o, to) -> o);
            ((ObjectNode) a.path("response")).putObject("result").put("status", "Failure")
                    .put("message", "conversion refused today");
            return a;
        });
    }

    @AfterAll
    static void stopWebhook() {
        if (webhook != null) {
            webhook.close();
        }
    }

    private static String crd(String url) {
        return """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata:
                  name: backends.conv.example.com
                spec:
                  group: conv.example.com
                  scope: Namespaced
                  names: {plural: backends, singular: backend, kind: Backend}
                  conversion:
                    strategy: Webhook
                    webhook:
                      conversionReviewVersions: [v1]
                      clientConfig: {url: "URL", caBundle: CA}
                  versions:
                  - name: v1
                    served: true
                    storage: true
                    schema:
                      openAPIV3Schema:
                        type: object
                        properties:
                          spec:
                            type: object
                            properties:
                              host: {type: string}
                              port: {type: integer}
                              protocol: {type: string, default: tcp}
                  - name: v2
                    served: true
                    storage: false
                    schema:
                      openAPIV3Schema:
                        type: object
                        properties:
                          spec:
                            type: object
                            properties:
                              address: {type: string}
                              protocol: {type: string}
                """.replace("URL", url).replace("CA", webhook.caBundle());
    }

    /** The test's conversion: v1 {@code host}+{@code port} is v2 {@code address}; it also labels and adds junk. */
    private static ObjectNode convert(ObjectNode o, String to) {
        ObjectNode spec = (ObjectNode) o.path("spec");
        if (to.endsWith("/v2") && spec.has("host")) {
            spec.put("address", spec.remove("host").asText() + ":" + spec.remove("port").asInt());
        } else if (to.endsWith("/v1") && spec.has("address")) {
            String[] parts = spec.remove("address").asText().split(":");
            spec.put("host", parts[0]);
            spec.put("port", Integer.parseInt(parts[1]));
        }
        spec.put("junk", 1);
        ((ObjectNode) o.path("metadata")).putObject("labels").put("converted", "yes");
        o.put("apiVersion", to);
        return o;
    }

    private interface Conversion {
        ObjectNode apply(ObjectNode object, String toApiVersion);
    }

    private static ObjectNode answer(JsonNode review, Conversion conversion) {
        ObjectNode answer = Json.object();
        answer.put("apiVersion", "apiextensions.k8s.io/v1");
        answer.put("kind", "ConversionReview");
        ObjectNode response = answer.putObject("response");
        response.put("uid", review.path("request").path("uid").asText());
        ArrayNode converted = response.putArray("convertedObjects");
        String to = review.path("request").path("desiredAPIVersion").asText();
        review.path("request").path("objects").forEach(o -> converted.add(conversion.apply(o.deepCopy(), to)));
        response.putObject("result").put("status", "Success");
        return answer;
    }

    private static Kubectl.Result kubectl(String... args) {
        return KAPI.kubectl().run(args);
    }


    @Test
    @Order(1)
    @DisplayName("objects written in v2 are stored in v1 through the webhook, and read back in either version")
    void createAndGet() {
        KAPI.kubectl().runWithInput(crd(webhook.url("/convert")), "apply", "-f", "-").assertOk();
        kubectl("wait", "--for=condition=Established", "crd/backends.conv.example.com", "--timeout=60s").assertOk();
        KAPI.kubectl().runWithInput("apiVersion: conv.example.com/v2\nkind: Backend\nmetadata: {name: db}\n"
                + "spec: {address: 'db.local:5432'}\n", "create", "-f", "-").assertOk();
        KAPI.kubectl().runWithInput("apiVersion: conv.example.com/v1\nkind: Backend\nmetadata: {name: cache}\n"
                + "spec: {host: cache.local, port: 6379}\n", "create", "-f", "-").assertOk();
        JsonNode toStorage = webhook.received("/convert").getFirst().path("request");
        assertEquals("conv.example.com/v1", toStorage.path("desiredAPIVersion").asText(), toStorage.toString());
        assertEquals("conv.example.com/v2", toStorage.path("objects").get(0).path("apiVersion").asText());

        JsonNode v1 = kubectl("get", "backends.v1.conv.example.com", "db", "-o", "json").json();
        assertEquals("db.local", v1.path("spec").path("host").asText(), v1.toString());
        assertEquals(5432, v1.path("spec").path("port").asInt(), v1.toString());
        assertEquals("tcp", v1.path("spec").path("protocol").asText(), "the storage version's default: " + v1);
        assertFalse(v1.path("spec").has("junk"), "pruned: " + v1);
        JsonNode v2 = kubectl("get", V2, "cache", "-o", "json").json();
        assertEquals("conv.example.com/v2", v2.path("apiVersion").asText(), v2.toString());
        assertEquals("cache.local:6379", v2.path("spec").path("address").asText(), v2.toString());
        assertEquals("tcp", v2.path("spec").path("protocol").asText(), "defaulted in storage, then converted: " + v2);
        assertFalse(v2.path("spec").has("junk"), "pruned by the v2 schema: " + v2);
        assertEquals("yes", v2.path("metadata").path("labels").path("converted").asText(), "labels are the webhook's");
    }

    @Test
    @Order(2)
    @DisplayName("a list is converted in one ConversionReview; its items carry the served apiVersion and kind")
    void list() throws Exception {
        int before = webhook.received("/convert").size();
        JsonNode items = kubectl("get", V2, "-o", "json").json().path("items");
        assertEquals(2, items.size(), items.toString());
        for (JsonNode item : items) {
            assertEquals("conv.example.com/v2", item.path("apiVersion").asText(), item.toString());
            assertEquals("Backend", item.path("kind").asText(), item.toString());
            assertTrue(item.path("spec").has("address"), item.toString());
        }
        List<JsonNode> reviews = webhook.received("/convert");
        assertEquals(before + 1, reviews.size(), "one review for the list");
        assertEquals(2, reviews.getLast().path("request").path("objects").size());
        try (KubernetesClient fabric8 = KAPI.fabric8()) {
            var list = fabric8.genericKubernetesResources("conv.example.com/v2", "Backend").inNamespace("default").list();
            assertEquals(2, list.getItems().size());
            for (GenericKubernetesResource r : list.getItems()) {
                assertEquals("conv.example.com/v2", r.getApiVersion());
                assertEquals("Backend", r.getKind());
            }
            GenericKubernetesResource db = fabric8.genericKubernetesResources("conv.example.com/v2", "Backend")
                    .inNamespace("default").withName("db").get();
            assertEquals("db.local:5432", ((java.util.Map<?, ?>) db.getAdditionalProperties().get("spec")).get("address"));
        }
    }

    @Test
    @Order(3)
    @DisplayName("a watch of v2 gets its events converted, initial and live")
    void watch() {
        String rv = kubectl("get", "--raw", "/apis/conv.example.com/v2/namespaces/default/backends").json()
                .path("metadata").path("resourceVersion").asText();
        kubectl("patch", "backends.v1.conv.example.com", "cache", "--type=merge", "-p", "{\"spec\":{\"port\":6380}}")
                .assertOk();
        String events = kubectl("get", "--raw", "/apis/conv.example.com/v2/namespaces/default/backends?watch=1"
                + "&resourceVersion=" + rv + "&timeoutSeconds=2").assertOk().stdout();
        assertTrue(events.contains("{\"type\":\"MODIFIED\",\"object\":{\"apiVersion\":\"conv.example.com/v2\","
                + "\"kind\":\"Backend\""), events);
        assertTrue(events.contains("\"address\":\"cache.local:6380\""), events);
    }

    @Test
    @Order(4)
    @DisplayName("a webhook that answers unconverted objects, refuses, or is not there: kube-apiserver's errors")
    void failures() throws Exception {
        useWebhook(webhook.url("/unconverted"), r -> r.stderr().contains("received conv.example.com/v1"));
        assertEquals("Error from server: conversion webhook for conv.example.com/v1, Kind=Backend returned invalid "
                + "object: invalid groupVersion (expected conv.example.com/v2, received conv.example.com/v1)",
                failure("get", V2, "db"));
        assertEquals("Error from server: conversion webhook for conv.example.com/v1, Kind=Backend returned invalid "
                + "converted object at index 0: invalid groupVersion (expected conv.example.com/v2, received "
                + "conv.example.com/v1)", failure("get", V2));

        useWebhook(webhook.url("/refuse"), r -> r.stderr().contains("refused today"));
        assertEquals("Error from server: conversion webhook for conv.example.com/v1, Kind=Backend returned invalid "
                + "response: conversion refused today", failure("get", V2, "db"));

        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        String gone = "https://127.0.0.1:" + port + "/convert";
        useWebhook(gone, r -> r.stderr().contains("connection refused"));
        assertEquals("Error from server: conversion webhook for conv.example.com/v1, Kind=Backend failed: Post \""
                + gone + "?timeout=30s\": dial tcp 127.0.0.1:" + port + ": connect: connection refused",
                failure("get", V2, "db"));
        Kubectl.Result create = KAPI.kubectl().runWithInput("apiVersion: conv.example.com/v2\nkind: Backend\n"
                + "metadata: {name: lost}\nspec: {address: 'x:1'}\n", "create", "-f", "-").assertFailed();
        assertTrue(create.stderr().contains("conversion webhook for conv.example.com/v2, Kind=Backend failed: Post"),
                create.toString());

        useWebhook(webhook.url("/convert"), r -> r.exitCode() == 0);
        assertEquals("db.local:5432", kubectl("get", V2, "db", "-o", "json").json().path("spec").path("address").asText());
        assertTrue(kubectl("get", V2, "lost").assertFailed().stderr().contains("NotFound"), "nothing stored on failure");
    }

    @Test
    @Order(5)
    @DisplayName("storage version changed to v2: old objects stay v1 and are converted on read until written again; "
            + "storedVersions lists both until status is patched, and v1 cannot leave spec.versions before")
    void storageVersionMigration() throws Exception {
        kubectl("patch", "crd", "backends.conv.example.com", "--type=json", "-p", "[{\"op\":\"replace\",\"path\":"
                + "\"/spec/versions/0/storage\",\"value\":false},{\"op\":\"replace\",\"path\":"
                + "\"/spec/versions/1/storage\",\"value\":true}]").assertOk();
        JsonNode stored = kubectl("get", "crd", "backends.conv.example.com", "-o", "json").json().path("status")
                .path("storedVersions");
        assertEquals("[\"v1\",\"v2\"]", stored.toString());
        awaitStorage("v2");

        int before = settledConversions();
        kubectl("get", V2, "db").assertOk();
        JsonNode read = webhook.received("/convert").getLast().path("request");
        assertEquals(before + 1, webhook.received("/convert").size(), "db is still stored as v1");
        assertEquals("conv.example.com/v1", read.path("objects").get(0).path("apiVersion").asText(), read.toString());

        for (String name : List.of("db", "cache")) { // the migration: every object written again
            String object = kubectl("get", V2, name, "-o", "json").assertOk().stdout();
            KAPI.kubectl().runWithInput(object, "replace", "-f", "-").assertOk();
        }
        before = settledConversions();
        JsonNode items = kubectl("get", V2, "-o", "json").json().path("items");
        assertTrue(items.size() >= 2, items.toString());
        assertEquals(before, webhook.received("/convert").size(), "stored as v2 now, nothing to convert");
        assertEquals("db.local:5432", kubectl("get", V2, "db", "-o", "json").json().path("spec").path("address").asText());

        Kubectl.Result early = kubectl("patch", "crd", "backends.conv.example.com", "--type=json", "-p",
                "[{\"op\":\"remove\",\"path\":\"/spec/versions/0\"}]").assertFailed();
        assertTrue(early.stderr().contains("status.storedVersions[0]: Invalid value: \"v1\": missing from spec.versions; "
                + "v1 was previously a storage version, and must remain in spec.versions until a storage migration "
                + "ensures no data remains persisted in v1 and removes v1 from status.storedVersions"), early.toString());
        kubectl("patch", "crd", "backends.conv.example.com", "--subresource=status", "--type=merge", "-p",
                "{\"status\":{\"storedVersions\":[\"v2\"]}}").assertOk();
        kubectl("patch", "crd", "backends.conv.example.com", "--type=json", "-p",
                "[{\"op\":\"remove\",\"path\":\"/spec/versions/0\"}]").assertOk();
        assertEquals("[\"v2\"]", kubectl("get", "crd", "backends.conv.example.com", "-o", "json").json().path("status")
                .path("storedVersions").toString());
    }

    /**
     * Waits until writes of v2 store v2 (the CRD's change reaches its definitions): a probe created in v2
     * needs no conversion then. The probes are deleted.
     */
    private static void awaitStorage(String version) {
        AtomicInteger probes = new AtomicInteger();
        CRD_CHANGE.until("storage version " + version + " in use", () -> {
            int i = probes.getAndIncrement();
            int before = webhook.received("/convert").size();
            KAPI.kubectl().runWithInput("apiVersion: conv.example.com/" + version + "\nkind: Backend\nmetadata: {name: probe"
                    + i + "}\nspec: {address: 'p:1'}\n", "create", "-f", "-").assertOk();
            boolean converted = webhook.received("/convert").size() != before;
            kubectl("delete", V2, "probe" + i).assertOk();
            return !converted;
        });
    }

    /**
     * The number of conversion requests the webhook has received, once no more arrive for half a second: a write
     * a step made is also converted for the server's own informers (the garbage collector's watches every
     * resource in one served version), and that request may arrive after the step. Counting a read's requests
     * from before those have arrived counted them as the read's.
     */
    private static int settledConversions() {
        int[] last = {-1};
        return QUIET.poll(() -> webhook.received("/convert").size(), n -> {
            boolean settled = n == last[0];
            last[0] = n;
            return settled;
        });
    }

    /** Points the CRD at {@code url} and waits until a get of v2 shows it in use ({@code used} holds for it). */
    private static void useWebhook(String url, Predicate<Kubectl.Result> used) {
        kubectl("patch", "crd", "backends.conv.example.com", "--type=json", "-p", "[{\"op\":\"replace\",\"path\":"
                + "\"/spec/conversion/webhook/clientConfig/url\",\"value\":\"" + url + "\"}]").assertOk();
        Kubectl.Result r = CRD_CHANGE.poll(() -> kubectl("get", V2, "db"), used);
        assertTrue(used.test(r), "the CRD's webhook " + url + " not in use within 60s: " + r);
    }

    /** kubectl's error line for a command that must fail. */
    private static String failure(String... args) {
        return kubectl(args).assertFailed().stderr().strip();
    }

}

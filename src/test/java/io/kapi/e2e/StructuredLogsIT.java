package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code --logging-format=json -v=3}: every line the server logs is one of kube's JSON objects, the
 * request lines in httplog's form; {@code PUT /debug/flags/v} changes the verbosity for admins only;
 * a bearer token never reaches the log.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
final class StructuredLogsIT {

    private static final String TOKEN = "s3cret-nobody-token-4711";

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension("--logging-format=json", "-v=3",
            "--token-auth-file=" + tokenFile(), "--authorization-mode=RBAC");

    private static final ObjectMapper JSON = new ObjectMapper();

    private static Path tokenFile() {
        try {
            Path file = Files.createTempFile("kapi-tokens-", ".csv");
            file.toFile().deleteOnExit();
            Files.writeString(file, TOKEN + ",nora,3001\n");
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    @Order(1)
    @DisplayName("with --logging-format=json -v=3 every log line parses as kube's JSON, request lines as httplog's")
    void everyLineIsJson() throws Exception {
        // the server's stdout and stderr, both in this file: all of it (the ready line too) is JSON
        try (ApiClient admin = ApiClient.of(KAPI.kapi().kubeconfig())) {
            assertEquals(200, admin.get("/api/v1/namespaces?limit=1").status());
            assertEquals(404, admin.get("/api/v1/namespaces/default/configmaps/missing").status());
        }
        List<JsonNode> lines = awaitLogLines(lines1 -> lines1.stream().anyMatch(l -> isRequest(l, "/api/v1/namespaces/default/configmaps/missing")));
        for (JsonNode line : lines) {
            assertTrue(line.path("ts").isFloatingPointNumber() || line.path("ts").isNumber(), "ts in " + line);
            assertTrue(line.path("caller").asText().matches("[\\w.$-]+/[\\w$]+\\.java:\\d+"), "caller in " + line);
            assertTrue(line.has("msg"), "msg in " + line);
            assertTrue(line.has("v") || line.has("err"), "v (or err for an error) in " + line);
        }
        JsonNode get = lines.stream().filter(l -> isRequest(l, "/api/v1/namespaces?limit=1")).findFirst().orElseThrow();
        assertEquals(3, get.path("v").asInt());
        assertEquals("GET", get.path("verb").asText());
        assertEquals(200, get.path("resp").asInt());
        assertTrue(get.path("latency").asText().matches("[0-9.]+(ms|s)"), get.toString());
        assertFalse(get.path("audit-ID").asText().isEmpty(), get.toString());
        assertFalse(get.path("srcIP").asText().isEmpty(), get.toString());
        assertTrue(get.path("userAgent").isTextual(), get.toString());
        JsonNode missing = lines.stream().filter(l -> isRequest(l, "/api/v1/namespaces/default/configmaps/missing"))
                .findFirst().orElseThrow();
        assertEquals(404, missing.path("resp").asInt());
    }

    @Test
    @Order(2)
    @DisplayName("PUT /debug/flags/v is refused (403) to a user without the permission, and its token is not logged")
    void debugFlagsRefused() throws Exception {
        try (ApiClient nora = ApiClient.anonymous(KAPI.kapi().kubeconfig(), Map.of("Authorization", "Bearer " + TOKEN))) {
            assertEquals(403, nora.send("PUT", "/debug/flags/v", "0", "text/plain").status());
        }
        awaitLogLines(lines -> lines.stream().anyMatch(l -> isRequest(l, "/debug/flags/v") && l.path("resp").asInt() == 403));
        assertFalse(Files.readString(KAPI.kapi().logFile()).contains(TOKEN), "the bearer token is in the log");
    }

    @Test
    @Order(3)
    @DisplayName("PUT /debug/flags/v by an admin sets the verbosity: at 0 the request lines stop, at 3 they come back")
    void debugFlagsChangeVerbosity() throws Exception {
        try (ApiClient admin = ApiClient.of(KAPI.kapi().kubeconfig())) {
            ApiClient.Response set = admin.send("PUT", "/debug/flags/v", "0", "text/plain");
            assertEquals(200, set.status(), set.body());
            assertEquals("successfully set klog.logging.verbosity to 0\n", set.body());
            assertEquals(200, admin.get("/api/v1/namespaces/kube-system").status());
            assertEquals(406, admin.send("GET", "/debug/flags/v", null, null).status());
            assertEquals(400, admin.send("PUT", "/debug/flags/v", "x", "text/plain").status());
            assertEquals(200, admin.send("PUT", "/debug/flags/v", "3", "text/plain").status());
            assertEquals(200, admin.get("/api/v1/namespaces/kube-public").status());
        }
        List<JsonNode> lines = awaitLogLines(l -> l.stream().anyMatch(x -> isRequest(x, "/api/v1/namespaces/kube-public")));
        assertFalse(lines.stream().anyMatch(l -> isRequest(l, "/api/v1/namespaces/kube-system")),
                "a request line logged at -v=0");
    }

    private static boolean isRequest(JsonNode line, String uri) {
        return line.path("msg").asText().equals("HTTP") && line.path("URI").asText().equals(uri);
    }

    /** The log's lines, each parsed (a line that is not JSON fails the test), once {@code done} holds. */
    private static List<JsonNode> awaitLogLines(java.util.function.Predicate<List<JsonNode>> done) throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            List<JsonNode> parsed = new ArrayList<>();
            for (String line : Files.readAllLines(KAPI.kapi().logFile())) {
                try {
                    parsed.add(JSON.readTree(line));
                } catch (IOException e) {
                    throw new AssertionError("not a JSON log line: " + line, e);
                }
            }
            if (done.test(parsed) || System.nanoTime() > deadline) {
                assertTrue(done.test(parsed), "expected log lines did not come");
                return parsed;
            }
            Thread.sleep(100);
        }
    }
}

package io.kapi.server.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.audit.AuditOptions;
import io.kapi.audit.Auditor;
import io.kapi.authz.Decision;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.Json;
import io.kapi.request.RequestContext;
import io.kapi.request.RequestInfo;
import io.kapi.user.UserInfo;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The audit filter in memory: the events of a request, written to a log file, stage by stage. */
@DisplayName("audit filter")
final class AuditTest {

    private static final UserInfo ALICE = new UserInfo("alice", "", List.of("system:authenticated"));

    @TempDir
    Path dir;

    private Auditor auditor(String level, String mode) throws IOException {
        Path policy = dir.resolve("policy.yaml");
        Files.writeString(policy, """
                apiVersion: audit.k8s.io/v1
                kind: Policy
                rules:
                - level: %s
                """.formatted(level));
        return Auditor.create(AuditOptions.DEFAULT.with("policy-file", policy.toString())
                .with("log-path", dir.resolve("logs/audit.log").toString()).with("log-mode", mode));
    }

    private List<JsonNode> events() throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("logs/audit.log"))) {
            out.add(Json.MAPPER.readTree(line));
        }
        return out;
    }

    private static RestResponse serve(Auditor auditor, String method, String path, String body,
                                      Decision decision, RestResponse answer) {
        RequestContext context = RequestContext.of(RequestInfo.parse(method, path, Map.of()), "id-1", null, "kubectl/v1.34")
                .withUser(ALICE);
        ServerRequest request = new ServerRequest(new RestRequest(method, path, Map.of(),
                Map.of("content-type", List.of("application/json")),
                new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)), context), List.of(), "10.0.0.7");
        return FilterChain.of(List.of(new Audit(auditor), new Authorization(a -> decision)), r -> {
            try {
                r.body().readAllBytes();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return answer;
        }).proceed(request);
    }

    @Test
    @DisplayName("a create at RequestResponse writes RequestReceived and ResponseComplete with both objects")
    void requestResponse() throws IOException {
        Auditor auditor = auditor("RequestResponse", "blocking");
        String created = "{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"c\",\"namespace\":\"ns\","
                + "\"uid\":\"u-1\",\"resourceVersion\":\"7\",\"managedFields\":[{}]}}";
        serve(auditor, "POST", "/api/v1/namespaces/ns/configmaps", "{\"metadata\":{\"name\":\"c\"}}", Decision.allow(),
                RestResponse.bytes(201, "application/json", created.getBytes(StandardCharsets.UTF_8)));
        auditor.shutdown();
        List<JsonNode> events = events();
        assertEquals(List.of("RequestReceived", "ResponseComplete"),
                events.stream().map(e -> e.path("stage").asText()).toList());
        JsonNode done = events.get(1);
        assertEquals("id-1", done.path("auditID").asText());
        assertEquals("create", done.path("verb").asText());
        assertEquals("alice", done.path("user").path("username").asText());
        assertEquals("[\"10.0.0.7\"]", done.path("sourceIPs").toString());
        assertEquals("kubectl/v1.34", done.path("userAgent").asText());
        assertEquals("{\"resource\":\"configmaps\",\"namespace\":\"ns\",\"name\":\"c\",\"apiVersion\":\"v1\"}",
                done.path("objectRef").toString());
        assertEquals("{\"metadata\":{},\"code\":201}", done.path("responseStatus").toString());
        assertEquals("c", done.path("requestObject").path("metadata").path("name").asText());
        assertEquals("u-1", done.path("responseObject").path("metadata").path("uid").asText());
        assertEquals("allow", done.path("annotations").path("authorization.k8s.io/decision").asText());
        assertTrue(done.path("stageTimestamp").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z"));
        assertFalse(events.getFirst().has("responseStatus"));
        assertEquals("rw-------", PosixFilePermissions.toString(
                Files.getPosixFilePermissions(dir.resolve("logs/audit.log"))));
    }

    @Test
    @DisplayName("a denied request is logged with its 403 status and the authorizer's decision and reason")
    void denied() throws IOException {
        Auditor auditor = auditor("Metadata", "blocking");
        RestResponse r = serve(auditor, "GET", "/api/v1/namespaces/ns/secrets", "", new Decision.Deny("no way"), null);
        auditor.shutdown();
        assertEquals(403, r.status());
        JsonNode done = events().getLast();
        assertEquals(403, done.path("responseStatus").path("code").asInt());
        assertEquals("Forbidden", done.path("responseStatus").path("reason").asText());
        assertEquals("forbid", done.path("annotations").path("authorization.k8s.io/decision").asText());
        assertEquals("no way", done.path("annotations").path("authorization.k8s.io/reason").asText());
        assertFalse(done.has("requestObject"));
    }

    @Test
    @DisplayName("a watch writes ResponseStarted when its stream starts and ResponseComplete when it ends")
    void watch() throws IOException {
        Auditor auditor = auditor("Metadata", "blocking");
        RestResponse r = serve(auditor, "GET", "/api/v1/namespaces/ns/pods", "", Decision.allow(),
                new RestResponse(200, new ArrayList<>(), new RestResponse.Stream("application/json", out -> { })));
        assertEquals(1, events().size());
        ((RestResponse.Stream) r.body()).writer().writeTo(null);
        auditor.shutdown();
        assertEquals(List.of("RequestReceived", "ResponseStarted", "ResponseComplete"),
                events().stream().map(e -> e.path("stage").asText()).toList());
    }

    @Test
    @DisplayName("blocking-strict refuses a request whose RequestReceived cannot be written; blocking serves it")
    void blockingStrict() throws IOException {
        Path policy = dir.resolve("policy.yaml");
        Files.writeString(policy, "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n");
        for (String mode : List.of("blocking-strict", "blocking")) {
            // writes to /dev/full fail with ENOSPC: a log that cannot be written
            Auditor auditor = Auditor.create(AuditOptions.DEFAULT.with("policy-file", policy.toString())
                    .with("log-path", "/dev/full").with("log-mode", mode));
            RestResponse r = serve(auditor, "GET", "/api/v1/namespaces/ns/pods", "", Decision.allow(),
                    RestResponse.bytes(200, "application/json", "{}".getBytes(StandardCharsets.UTF_8)));
            assertEquals(mode.equals("blocking") ? 200 : 500, r.status(), mode);
            assertEquals(mode.equals("blocking") ? 0 : 1, auditor.metrics().requestsRejectedTotal(), mode);
            auditor.shutdown();
        }
    }

    @Test
    @DisplayName("a request authentication refuses is one ResponseStarted event with code 401 and no user")
    void failedAuthentication() throws IOException {
        Auditor auditor = auditor("Metadata", "blocking");
        Audit audit = new Audit(auditor);
        RequestContext context = RequestContext.of(RequestInfo.parse("GET", "/api/v1/namespaces", Map.of()), "id-2", null, "curl");
        ServerRequest request = new ServerRequest(new RestRequest("GET", "/api/v1/namespaces", Map.of(), Map.of(),
                new ByteArrayInputStream(new byte[0]), context), List.of(), "10.0.0.8");
        FilterChain chain = FilterChain.of(List.of(audit.failedAuthentication(),
                new Authentication((r, certificates) -> java.util.Optional.empty()), audit),
                r -> RestResponse.bytes(200, null, new byte[0]));
        io.kapi.machinery.ApiException e = org.junit.jupiter.api.Assertions.assertThrows(
                io.kapi.machinery.ApiException.class, () -> chain.proceed(request));
        assertEquals(401, e.code());
        auditor.shutdown();
        List<JsonNode> events = events();
        assertEquals(1, events.size(), events.toString());
        assertEquals("ResponseStarted", events.getFirst().path("stage").asText());
        assertEquals("{\"metadata\":{},\"code\":401}", events.getFirst().path("responseStatus").toString());
        assertEquals("{}", events.getFirst().path("user").toString());
        assertEquals("list", events.getFirst().path("verb").asText());
    }
}

package io.kapi.apis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.certs.TestCsrs;
import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import io.kapi.user.UserInfo;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** kube's csrStrategy: the requester comes from the request, the spec is fixed, /status leaves the conditions. */
class CsrStrategyTest {

    private static final String CSRS = "/apis/certificates.k8s.io/v1/certificatesigningrequests";
    private static final UserInfo JANE = new UserInfo("jane", "uid-1", List.of("dev", "system:authenticated"),
            Map.of("scopes", List.of("a", "b")));

    @InMemoryApi
    private static ApiHarness api;

    private static String csr(String name) {
        return """
                {"apiVersion":"certificates.k8s.io/v1","kind":"CertificateSigningRequest","metadata":{"name":"%s"},
                 "spec":{"request":"%s","signerName":"example.com/signer","usages":["client auth"],
                  "username":"admin","uid":"forged","groups":["system:masters"],"extra":{"k":["v"]}},
                 "status":{"conditions":[{"type":"Approved","status":"True"}]}}"""
                .formatted(name, TestCsrs.request("CN=" + name));
    }

    @Test
    @DisplayName("a new request records who made it, whatever the body says, and starts without conditions")
    void requester() {
        ApiHarness.Reply created = api.call(JANE, "POST", CSRS, "application/json", csr("jane"));
        assertEquals(201, created.code(), created.text());
        JsonNode spec = api.get(CSRS + "/jane").body().path("spec");
        assertEquals("jane", spec.path("username").asText());
        assertEquals("uid-1", spec.path("uid").asText());
        assertEquals("[\"dev\",\"system:authenticated\"]", spec.path("groups").toString());
        assertEquals("{\"scopes\":[\"a\",\"b\"]}", spec.path("extra").toString());
        assertFalse(api.get(CSRS + "/jane").body().path("status").has("conditions"));
    }

    @Test
    @DisplayName("an update keeps the spec and status; /status changes the certificate but not the conditions")
    void updates() {
        assertEquals(201, api.call(JANE, "POST", CSRS, "application/json", csr("fixed")).code());
        ObjectNode stored = (ObjectNode) api.get(CSRS + "/fixed").body();
        stored.with("spec").putArray("usages").add("server auth");
        stored.with("spec").put("username", "admin");
        stored.with("metadata").with("labels").put("seen", "yes");
        ApiHarness.Reply updated = api.put(CSRS + "/fixed", stored.toString());
        assertEquals(200, updated.code(), updated.text());
        assertEquals("[\"client auth\"]", updated.body().path("spec").path("usages").toString());
        assertEquals("jane", updated.body().path("spec").path("username").asText());
        assertEquals("yes", updated.body().path("metadata").path("labels").path("seen").asText());

        ApiHarness.Reply status = api.patch(CSRS + "/fixed/status", "application/merge-patch+json",
                "{\"status\":{\"certificate\":\"" + TestCsrs.issuedCertificate("fixed") + "\","
                        + "\"conditions\":[{\"type\":\"Approved\",\"status\":\"True\"}]}}");
        assertEquals(200, status.code(), status.text());
        assertFalse(status.body().path("status").path("certificate").asText().isEmpty());
        assertFalse(status.body().path("status").has("conditions"), status.text());
    }
}

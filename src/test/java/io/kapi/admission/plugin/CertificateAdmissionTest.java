package io.kapi.admission.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.certs.TestCsrs;
import io.kapi.fixtures.Await;
import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import io.kapi.machinery.Json;
import io.kapi.user.UserInfo;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** CertificateApproval, CertificateSigning and CertificateSubjectRestriction under RBAC. */
class CertificateAdmissionTest {

    private static final UserInfo CAROL = new UserInfo("carol", "", List.of("system:authenticated"), Map.of());
    private static final String CSRS = "/apis/certificates.k8s.io/v1/certificatesigningrequests";
    /** Requests that depend on roles just written: the RBAC mirror catches up with them a moment later. */
    private static final Await RBAC_MIRROR = Await.atMost(Duration.ofSeconds(20)).every(Duration.ofMillis(100));

    @InMemoryApi(authorizationModes = "RBAC")
    private static ApiHarness api;

    @BeforeAll
    static void start() {
        api.post("/apis/rbac.authorization.k8s.io/v1/clusterroles", """
                {"metadata":{"name":"csr-writer"},"rules":[{"apiGroups":["certificates.k8s.io"],
                 "resources":["certificatesigningrequests","certificatesigningrequests/approval",
                 "certificatesigningrequests/status"],"verbs":["get","list","create","update","patch"]}]}""");
        api.post("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", """
                {"metadata":{"name":"carol-csr-writer"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io",
                 "kind":"ClusterRole","name":"csr-writer"},"subjects":[{"kind":"User","name":"carol"}]}""");
    }

    private static ObjectNode csr(String name, String signer, String subject) throws Exception {
        ObjectNode o = Json.object().put("apiVersion", "certificates.k8s.io/v1").put("kind", "CertificateSigningRequest");
        o.putObject("metadata").put("name", name);
        ObjectNode spec = o.putObject("spec").put("signerName", signer)
                .put("request", TestCsrs.request(subject));
        spec.putArray("usages").add("client auth");
        return o;
    }

    @Test
    @DisplayName("a kube-apiserver-client CSR for system:masters is refused at create")
    void subjectRestriction() throws Exception {
        ApiHarness.Reply r = api.post(CSRS, csr("masters", CertificateSubjectRestriction.CLIENT_SIGNER,
                "CN=eve,O=system:masters").toString());
        assertEquals(403, r.code(), r.text());
        assertEquals("certificatesigningrequests.certificates.k8s.io \"masters\" is forbidden: use of "
                + "kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed",
                r.body().path("message").asText());
        assertEquals(201, api.post(CSRS, csr("dev", CertificateSubjectRestriction.CLIENT_SIGNER,
                "CN=eve,O=developers").toString()).code());
        // every O counts, as Go's pkix.Name collects them: a second one, and one beside CN in a multi-valued RDN
        for (String subject : List.of("CN=eve,O=developers,O=system:masters", "CN=eve+O=system:masters")) {
            ApiHarness.Reply hidden = api.post(CSRS, csr("hidden", CertificateSubjectRestriction.CLIENT_SIGNER, subject).toString());
            assertEquals(403, hidden.code(), subject + ": " + hidden.text());
        }
    }

    @Test
    @DisplayName("approving needs approve on the signer (or its domain wildcard); setting the certificate needs sign")
    void approvalAndSigning() throws Exception {
        assertEquals(201, api.post(CSRS, csr("req", "example.com/issuer", "CN=app").toString()).code());
        ObjectNode stored = (ObjectNode) api.get(CSRS + "/req").body();
        stored.putObject("status").putArray("conditions").addObject().put("type", "Approved").put("status", "True")
                .put("reason", "ok").put("message", "ok");
        String approve = stored.toString();
        ApiHarness.Reply denied = RBAC_MIRROR.poll(() -> api.call(CAROL, "PUT", CSRS + "/req/approval",
                "application/json", approve), r -> r.code() == 403);
        assertEquals(403, denied.code(), denied.text());
        assertEquals("certificatesigningrequests.certificates.k8s.io \"req\" is forbidden: user not permitted to approve "
                + "requests with signerName \"example.com/issuer\"", denied.body().path("message").asText());
        api.post("/apis/rbac.authorization.k8s.io/v1/clusterroles", """
                {"metadata":{"name":"example-signer"},"rules":[{"apiGroups":["certificates.k8s.io"],
                 "resources":["signers"],"resourceNames":["example.com/*"],"verbs":["approve"]}]}""");
        api.post("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", """
                {"metadata":{"name":"carol-example-signer"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io",
                 "kind":"ClusterRole","name":"example-signer"},"subjects":[{"kind":"User","name":"carol"}]}""");
        ApiHarness.Reply approved = RBAC_MIRROR.poll(() -> api.call(CAROL, "PUT", CSRS + "/req/approval",
                "application/json", approve), r -> r.code() == 200);
        assertEquals(200, approved.code(), approved.text());
        String certificate = TestCsrs.issuedCertificate("issued");
        ApiHarness.Reply unsigned = api.call(CAROL, "PATCH", CSRS + "/req/status", "application/merge-patch+json",
                "{\"status\":{\"certificate\":\"" + certificate + "\"}}");
        assertEquals(403, unsigned.code(), unsigned.text());
        assertEquals("certificatesigningrequests.certificates.k8s.io \"req\" is forbidden: user not permitted to sign "
                + "requests with signerName \"example.com/issuer\"", unsigned.body().path("message").asText());
    }
}

package io.kapi.apis.subresources;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.certs.TestCsrs;
import io.kapi.harness.InMemoryApi;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class CsrApprovalTest {

    private static final String CSRS = "/apis/certificates.k8s.io/v1/certificatesigningrequests";

    @InMemoryApi
    private static Api api;

    private static ObjectNode csr(String name) {
        String request = TestCsrs.request("CN=" + name);
        api.create(CSRS, """
                {"apiVersion":"certificates.k8s.io/v1","kind":"CertificateSigningRequest","metadata":{"name":"%s"},
                 "spec":{"request":"%s","signerName":"example.com/signer","usages":["client auth"]}}"""
                .formatted(name, request));
        return (ObjectNode) api.get(CSRS + "/" + name).body();
    }

    private static Api.Reply approve(ObjectNode csr, String type) {
        ArrayNode conditions = csr.with("status").withArray("conditions");
        conditions.addObject().put("type", type).put("status", "True").put("reason", "KubectlApprove")
                .put("message", "This CSR was approved by kubectl certificate approve.");
        csr.with("spec").put("signerName", "changed/ignored");
        return api.put(CSRS + "/" + csr.path("metadata").path("name").asText() + "/approval", csr.toString());
    }

    @Test
    @DisplayName("approval takes only the conditions and stamps their times")
    void approves() {
        Api.Reply reply = approve(csr("a"), "Approved");
        assertEquals(200, reply.code(), reply.text());
        JsonNode stored = api.get(CSRS + "/a").body();
        assertEquals("example.com/signer", stored.path("spec").path("signerName").asText());
        JsonNode condition = stored.path("status").path("conditions").path(0);
        assertEquals("Approved", condition.path("type").asText());
        assertEquals(false, condition.path("lastUpdateTime").asText().isEmpty());
    }

    @Test
    @DisplayName("Approved and Denied together are refused with kube-apiserver's message")
    void exclusive() {
        ObjectNode csr = csr("b");
        approve(csr, "Approved");
        ObjectNode again = (ObjectNode) api.get(CSRS + "/b").body();
        Api.Reply reply = approve(again, "Denied");
        assertEquals(422, reply.code());
        String message = reply.body().path("message").asText();
        // kube's validateConditions names the second condition's type (not the whole list)
        assertEquals("CertificateSigningRequest.certificates.k8s.io \"b\" is invalid: status.conditions[1].type: "
                + "Invalid value: \"Denied\": Approved and Denied conditions are mutually exclusive", message);
    }

    @Test
    @DisplayName("an approval cannot be removed; status updates go through the status subresource")
    void noRemoval() {
        approve(csr("c"), "Approved");
        ObjectNode stored = (ObjectNode) api.get(CSRS + "/c").body();
        stored.with("status").putArray("conditions");
        Api.Reply reply = api.put(CSRS + "/c/approval", stored.toString());
        assertEquals(422, reply.code());
        assertEquals("CertificateSigningRequest.certificates.k8s.io \"c\" is invalid: status.conditions: Forbidden: "
                + "updates may not remove a condition of type \"Approved\"", reply.body().path("message").asText());
        ObjectNode withCert = (ObjectNode) api.get(CSRS + "/c").body();
        withCert.with("status").put("certificate", TestCsrs.issuedCertificate("c"));
        Api.Reply status = api.put(CSRS + "/c/status", withCert.toString());
        assertEquals(200, status.code(), status.text());
    }

    @Test
    @DisplayName("a merge or JSON patch of approval takes only the conditions too; apply is refused with 415")
    void patches() {
        csr("p");
        Api.Reply merge = api.call("PATCH", CSRS + "/p/approval", "application/merge-patch+json",
                "{\"spec\":{\"signerName\":\"changed/ignored\"},\"status\":{\"conditions\":[{\"type\":\"Denied\","
                        + "\"status\":\"True\",\"reason\":\"KubectlDeny\"}]}}");
        assertEquals(200, merge.code(), merge.text());
        JsonNode stored = api.get(CSRS + "/p").body();
        assertEquals("example.com/signer", stored.path("spec").path("signerName").asText());
        assertEquals("Denied", stored.path("status").path("conditions").path(0).path("type").asText());
        assertEquals(false, stored.path("status").path("conditions").path(0).path("lastTransitionTime").asText().isEmpty());

        Api.Reply json = api.call("PATCH", CSRS + "/p/approval", "application/json-patch+json",
                "[{\"op\":\"add\",\"path\":\"/status/conditions/-\",\"value\":{\"type\":\"Approved\",\"status\":\"True\"}}]");
        assertEquals(422, json.code(), json.text());
        assertEquals(true, json.body().path("message").asText().endsWith("Approved and Denied conditions are mutually exclusive"),
                json.text());

        Api.Reply apply = api.call("PATCH", CSRS + "/p/approval?fieldManager=t", "application/apply-patch+yaml", "{}");
        assertEquals(415, apply.code(), apply.text());
    }
}

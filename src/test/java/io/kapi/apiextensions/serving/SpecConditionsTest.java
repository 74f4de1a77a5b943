package io.kapi.apiextensions.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.apiextensions.Crd;
import io.kapi.machinery.Json;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** kube's nonStructuralSchema and apiApproval conditions, computed from CRD objects. */
class SpecConditionsTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    private static ObjectNode crd(String group, String annotation, boolean preserve, String schema) throws Exception {
        String annotations = annotation == null ? "" : ",\"annotations\":{\"api-approved.kubernetes.io\":\"" + annotation + "\"}";
        return (ObjectNode) Json.MAPPER.readTree("{\"metadata\":{\"name\":\"things." + group + "\"" + annotations + "},"
                + "\"spec\":{\"group\":\"" + group + "\",\"preserveUnknownFields\":" + preserve + ",\"versions\":[{\"name\":"
                + "\"v1\",\"served\":true,\"storage\":true,\"schema\":{\"openAPIV3Schema\":" + schema + "}}]}}");
    }

    private static JsonNode condition(ObjectNode crd, String type) {
        return new Crd(crd).condition(type);
    }

    private static ObjectNode applied(ObjectNode crd) {
        ObjectNode desired = crd.deepCopy();
        SpecConditions.apply(desired, new Crd(crd), NOW);
        return desired;
    }

    @Test
    @DisplayName("preserveUnknownFields and a schema that is not structural: NonStructuralSchema True, Violations, aggregated")
    void nonStructural() throws Exception {
        ObjectNode crd = applied(crd("example.com", null, true,
                "{\"type\":\"object\",\"properties\":{\"spec\":{\"properties\":{\"a\":{\"type\":\"string\"}}}}}"));
        JsonNode c = condition(crd, "NonStructuralSchema");
        assertEquals("True", c.path("status").asText());
        assertEquals("Violations", c.path("reason").asText());
        assertEquals("[spec.preserveUnknownFields: Invalid value: true: must be false, "
                + "spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for "
                + "specified object fields]", c.path("message").asText());
        assertNull(condition(crd, "KubernetesAPIApprovalPolicyConformant"), "not a protected group");
    }

    @Test
    @DisplayName("a structural CRD has no NonStructuralSchema condition; one set before is removed")
    void structural() throws Exception {
        ObjectNode crd = crd("example.com", null, false, "{\"type\":\"object\"}");
        crd.putObject("status").putArray("conditions").addObject().put("type", "NonStructuralSchema").put("status", "True");
        assertNull(condition(applied(crd), "NonStructuralSchema"));
    }

    @Test
    @DisplayName("groups of the Kubernetes project: approved URL, unapproved reason, missing or invalid annotation")
    void apiApproval() throws Exception {
        String schema = "{\"type\":\"object\"}";
        JsonNode approved = condition(applied(crd("x.k8s.io", "https://github.com/kubernetes/kubernetes/pull/1", false,
                schema)), "KubernetesAPIApprovalPolicyConformant");
        assertEquals("True", approved.path("status").asText());
        assertEquals("ApprovedAnnotation", approved.path("reason").asText());
        assertEquals("approved in https://github.com/kubernetes/kubernetes/pull/1", approved.path("message").asText());
        JsonNode bypassed = condition(applied(crd("x.kubernetes.io", "unapproved, testing", false, schema)),
                "KubernetesAPIApprovalPolicyConformant");
        assertEquals("False", bypassed.path("status").asText());
        assertEquals("UnapprovedAnnotation", bypassed.path("reason").asText());
        assertEquals("not approved: \"unapproved, testing\"", bypassed.path("message").asText());
        JsonNode missing = condition(applied(crd("k8s.io", null, false, schema)), "KubernetesAPIApprovalPolicyConformant");
        assertEquals("MissingAnnotation", missing.path("reason").asText());
        JsonNode invalid = condition(applied(crd("k8s.io", "yes", false, schema)), "KubernetesAPIApprovalPolicyConformant");
        assertEquals("InvalidAnnotation", invalid.path("reason").asText());
        assertNull(condition(applied(crd("x-k8s.io", null, false, schema)), "KubernetesAPIApprovalPolicyConformant"),
                "x-k8s.io is not the project's");
    }
}

package io.kapi.testing.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kapi.testing.KapiTest;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The sample operator's suite against Kapi: one in-process server for the class, a namespace per
 * test. Besides the shared tests, the scenarios where fabric8's mock server differs
 * ({@link WebAppOperatorMockTest}) behave here as they do on kube-apiserver.
 */
@KapiTest(namespacePerTest = true)
@DisplayName("sample operator on Kapi")
class WebAppOperatorKapiTest extends WebAppOperatorSuite {

    KubernetesClient client;

    @Override
    KubernetesClient client() {
        return client;
    }

    @Test
    @DisplayName("server-side apply removes a field the operator stopped applying (the tier label)")
    void removesWhatItNoLongerApplies() {
        Deployment d = tierDropped("cart");
        assertFalse(d.getMetadata().getLabels().containsKey(WebAppOperator.TIER_LABEL), d.getMetadata().getLabels().toString());
        assertEquals("cart", d.getMetadata().getLabels().get(WebAppOperator.OWNER_LABEL));
    }

    @Test
    @DisplayName("managedFields record the operator's apply and the fields it owns")
    void recordsOwnership() {
        Deployment d = applied("news");
        ManagedFieldsEntry entry = d.getMetadata().getManagedFields().stream()
                .filter(m -> m.getManager().equals(WebAppOperator.MANAGER)).findFirst().orElseThrow();
        assertEquals("Apply", entry.getOperation());
        assertEquals("FieldsV1", entry.getFieldsType());
        String fields = entry.getFieldsV1().getAdditionalProperties().toString();
        assertTrue(fields.contains("f:replicas") && fields.contains("f:image"), fields);
    }

    @Test
    @DisplayName("another manager applying the operator's field without force gets 409 Conflict naming the owner")
    void conflictForAnotherManager() {
        KubernetesClientException refused = otherManagerApplies("docs");
        assertNotNull(refused, "the apply was accepted");
        assertEquals(409, refused.getCode());
        assertTrue(refused.getMessage().contains("Apply failed with 1 conflict: conflict with \"webapp-operator\": .spec.replicas"),
                refused.getMessage());
        assertEquals(2, client.apps().deployments().withName("docs").get().getSpec().getReplicas());
    }

    @Test
    @DisplayName("an invalid Deployment (-1 replicas) is refused with 422, and the operator records why")
    void refusesInvalid() {
        Outcome outcome = negativeReplicas("chat");
        assertNull(outcome.deployment());
        assertNotNull(outcome.error());
        assertTrue(outcome.error().startsWith("422 ")
                && outcome.error().contains("spec.replicas: Invalid value: -1: must be greater than or equal to 0"), outcome.error());
    }

    @Test
    @DisplayName("set-based label selectors (in, notin) select by tier")
    void setBasedSelectors() {
        assertEquals(List.of(List.of("tiers-backend", "tiers-frontend"), List.of("tiers-backend", "tiers-batch")),
                setBasedSelectors("tiers"));
    }

    @Test
    @DisplayName("the same apply again stores nothing: same resourceVersion, no event (so the operator does not loop)")
    void sameWriteIsNoOp() {
        List<String> versions = sameWriteAgain("mail");
        assertEquals(versions.get(0), versions.get(1));
    }

    @Test
    @DisplayName("a JSON merge patch replaces a list: one container, with the new image")
    void mergePatchReplacesLists() throws InterruptedException {
        assertEquals(List.of("nginx:1.28"), mergePatchedImage("list"));
    }
}

package io.kapi.testing.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.kapi.fixtures.Await;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The sample operator's suite against fabric8's mock server in CRUD mode (the usual in-process stand-in),
 * asserting what the mock does: each test here is named after what it gets wrong, and fails the day
 * the mock changes. {@link WebAppOperatorKapiTest} runs the same scenarios against Kapi and asserts
 * what kube-apiserver does.
 *
 * <p>The mock has no server-side apply at all (404 for a new object, 415 for an existing one), so the
 * shared tests run an operator with mock-only workarounds ({@code new WebAppOperator(client, true)}:
 * create, else replace); with them they pass, and the scenarios below still differ.
 */
@EnableKubernetesMockClient(crud = true)
@DisplayName("sample operator on fabric8's mock server (what it gets wrong)")
class WebAppOperatorMockTest extends WebAppOperatorSuite {

    static KubernetesClient client;

    @Override
    KubernetesClient client() {
        return client;
    }

    @Override
    WebAppOperator newOperator() {
        return new WebAppOperator(client, true);
    }

    @Test
    @DisplayName("wrong: no server-side apply: 404 Not Found for a new object, 415 Unsupported Media Type for an existing one")
    void noServerSideApply() throws Exception {
        operator().close();
        try (WebAppOperator asWritten = new WebAppOperator(client).start()) {
            createApp("plain", Map.of("image", "nginx:1.27"));
            EVENTUALLY.until("the operator tried", () -> asWritten.errors().containsKey("plain"));
            assertTrue(asWritten.errors().get("plain").startsWith("404 "), asWritten.errors().get("plain"));
            assertNull(client.apps().deployments().withName("plain").get());

            client.apps().deployments().resource(WebAppOperator.desired(client.configMaps().withName("plain").get())).create();
            editApp("plain", data -> data.put("replicas", "2"));
            EVENTUALLY.until("415 " + asWritten.errors(), () -> asWritten.errors().getOrDefault("plain", "").startsWith("415 "));
        }
    }

    @Test
    @DisplayName("wrong: a JSON merge patch appends to lists: two containers named web (kube replaces the list)")
    void mergePatchReplacesLists() throws InterruptedException {
        assertEquals(List.of("nginx:1.27", "nginx:1.28"), mergePatchedImage("list"));
    }

    @Test
    @DisplayName("wrong: no managedFields: who owns which field is not recorded")
    void recordsOwnership() {
        Deployment d = applied("news");
        assertTrue(d.getMetadata().getManagedFields() == null || d.getMetadata().getManagedFields().isEmpty(),
                String.valueOf(d.getMetadata().getManagedFields()));
    }

    @Test
    @DisplayName("wrong: another manager's apply is 415, not a 409 Conflict naming the owner")
    void conflictForAnotherManager() {
        KubernetesClientException refused = otherManagerApplies("docs");
        assertNotNull(refused);
        assertEquals(415, refused.getCode(), refused.getMessage());
    }

    @Test
    @DisplayName("wrong: an invalid Deployment (-1 replicas) is stored; the operator sees no error")
    void refusesInvalid() {
        Outcome outcome = negativeReplicas("chat");
        assertNull(outcome.error());
        assertEquals(-1, outcome.deployment().getSpec().getReplicas());
    }

    @Test
    @DisplayName("wrong: set-based label selectors (in, notin) select everything")
    void setBasedSelectors() {
        List<String> all = List.of("tiers-backend", "tiers-batch", "tiers-frontend");
        assertEquals(List.of(all, all), setBasedSelectors("tiers"));
    }
}

package io.kapi.apis.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.health.PostStartHook;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class BootstrapHooksTest {

    private final BootstrapFixture fixture = new BootstrapFixture();

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    @Test
    @DisplayName("hooks carry kube-apiserver's names, run twice cleanly, and close drops this server from the endpoints")
    void lifecycle() throws Exception {
        BootstrapHooks bootstrap = BootstrapHooks.create(fixture.client, fixture.registry,
                new io.kapi.informers.SharedInformers(fixture.registry::store), fixture.storage,
                new BootstrapHooks.Endpoint("10.96.0.0/12", "10.0.0.5", 6443), true);
        assertEquals(List.of("rbac/bootstrap-roles", "scheduling/bootstrap-system-priority-classes",
                "priority-and-fairness-config-producer", "kube-apiserver-autoregistration", "bootstrap-controller",
                "start-kube-apiserver-identity-lease-controller", "start-kube-apiserver-identity-lease-garbage-collector"),
                bootstrap.hooks().stream().map(PostStartHook::name).toList());
        for (int i = 0; i < 2; i++) {
            for (PostStartHook hook : bootstrap.hooks()) {
                hook.run();
            }
        }
        assertEquals("10.0.0.5", fixture.get("", "endpoints", "default", "kubernetes")
                .path("subsets").path(0).path("addresses").path(0).path("ip").asText());
        assertFalse(fixture.get("rbac.authorization.k8s.io", "clusterroles", "", "view").path("rules").isEmpty());
        String identity = IdentityLease.leaseName(IdentityLease.hostname());
        assertTrue(identity.matches("apiserver-[a-z2-7]{26}"), identity);
        var lease = fixture.get("coordination.k8s.io", "leases", "kube-system", identity);
        assertEquals("kube-apiserver", lease.path("metadata").path("labels").path("apiserver.kubernetes.io/identity").asText());
        assertEquals(IdentityLease.hostname(), lease.path("metadata").path("labels").path("kubernetes.io/hostname").asText());
        assertEquals(3600, lease.path("spec").path("leaseDurationSeconds").asInt());
        assertTrue(lease.path("spec").path("holderIdentity").asText().startsWith(identity + "_"));
        bootstrap.close();
        assertTrue(fixture.get("", "endpoints", "default", "kubernetes").path("subsets").isMissingNode(),
                "no live server left");
        assertTrue(fixture.get("discovery.k8s.io", "endpointslices", "default", "kubernetes").path("endpoints")
                .isMissingNode());
    }
}

package io.kapi.health;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("health checks in kube-apiserver's order")
class KubeCheckOrderTest {

    private static HealthCheck check(String name) {
        return new NamedCheck(name, () -> { });
    }

    private static List<String> names(List<HealthCheck> checks) {
        return checks.stream().map(HealthCheck::name).toList();
    }

    @Test
    @DisplayName("kube's checks in its order; Kapi's own hooks after kube's, a storage-side check after etcd-readiness")
    void order() {
        List<HealthCheck> given = List.of(check("ping"), check("log"), check("etcd"), check("etcd-readiness"),
                check("informer-sync"), check("kms-providers"), check("poststarthook/start-system-namespaces-controller"),
                check("poststarthook/start-kapi-namespace-controller"), check("poststarthook/rbac/bootstrap-roles"),
                check("poststarthook/start-kapi-event-ttl"), check("poststarthook/apiservice-openapiv3-controller"),
                check("poststarthook/generic-apiserver-start-informers"), check("autoregister-completion"),
                check("poststarthook/kube-apiserver-autoregistration"),
                check("poststarthook/start-apiserver-admission-initializer"));
        assertEquals(List.of("ping", "log", "etcd", "etcd-readiness", "kms-providers", "informer-sync",
                "poststarthook/start-apiserver-admission-initializer", "poststarthook/generic-apiserver-start-informers",
                "poststarthook/start-system-namespaces-controller", "poststarthook/rbac/bootstrap-roles",
                "poststarthook/kube-apiserver-autoregistration", "autoregister-completion",
                "poststarthook/apiservice-openapiv3-controller", "poststarthook/start-kapi-namespace-controller",
                "poststarthook/start-kapi-event-ttl"), names(KubeCheckOrder.sorted(given)));
    }

    @Test
    @DisplayName("the order is kube-apiserver 1.32's /readyz?verbose, line for line (the reference)")
    void referenceOrder() throws Exception {
        String reference;
        try (var in = KubeCheckOrderTest.class.getResourceAsStream("/e2e/reference/readyz-verbose-v1.32.13.txt")) {
            reference = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        List<String> listed = reference.lines().filter(l -> l.startsWith("[+]"))
                .map(l -> l.substring(3, l.length() - " ok".length())).toList();
        List<String> known = KubeCheckOrder.KUBE.stream().filter(listed::contains).toList();
        assertEquals(listed, known);
    }
}

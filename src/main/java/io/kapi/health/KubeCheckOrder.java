package io.kapi.health;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Puts health checks in the order kube-apiserver 1.34 lists its own at {@code /readyz?verbose} (the order its
 * components register them: generic server, apiextensions, core, aggregator), so that a report reads line for
 * line like kube's. A check kube has no name for keeps its place among its kind: a storage-side check (e.g.
 * {@code kms-providers}, which kube registers with the storage's) after {@code etcd-readiness}, a post-start
 * hook of Kapi's own after kube's hooks. The sort is stable.
 */
public final class KubeCheckOrder {

    /** kube-apiserver's checks, in its order. */
    static final List<String> KUBE = List.of(
            "ping", "log", "etcd", "etcd-readiness", "informer-sync",
            "poststarthook/start-apiserver-admission-initializer",
            "poststarthook/generic-apiserver-start-informers",
            "poststarthook/priority-and-fairness-config-consumer",
            "poststarthook/priority-and-fairness-filter",
            "poststarthook/max-in-flight-filter",
            "poststarthook/storage-object-count-tracker-hook",
            "poststarthook/start-apiextensions-informers",
            "poststarthook/start-apiextensions-controllers",
            "poststarthook/crd-informer-synced",
            "poststarthook/start-system-namespaces-controller",
            "poststarthook/start-cluster-authentication-info-controller",
            "poststarthook/start-kube-apiserver-identity-lease-controller",
            "poststarthook/start-kube-apiserver-identity-lease-garbage-collector",
            "poststarthook/start-legacy-token-tracking-controller",
            "poststarthook/start-service-ip-repair-controllers",
            "poststarthook/rbac/bootstrap-roles",
            "poststarthook/scheduling/bootstrap-system-priority-classes",
            "poststarthook/priority-and-fairness-config-producer",
            "poststarthook/bootstrap-controller",
            "poststarthook/start-kube-aggregator-informers",
            "poststarthook/apiservice-status-local-available-controller",
            "poststarthook/apiservice-status-remote-available-controller",
            "poststarthook/apiservice-registration-controller",
            "poststarthook/apiservice-wait-for-first-sync",
            "poststarthook/apiservice-discovery-controller",
            "poststarthook/kube-apiserver-autoregistration",
            "autoregister-completion",
            "poststarthook/apiservice-openapi-controller",
            "poststarthook/apiservice-openapiv3-controller",
            "shutdown");
    private static final int STORAGE_SIDE = KUBE.indexOf("etcd-readiness");
    private static final int LAST_HOOK = KUBE.indexOf("poststarthook/apiservice-openapiv3-controller");

    private KubeCheckOrder() {
    }

    /** {@code checks} in kube's order; those kube does not have where their kind goes. */
    public static List<HealthCheck> sorted(List<HealthCheck> checks) {
        List<HealthCheck> sorted = new ArrayList<>(checks);
        sorted.sort(Comparator.comparingDouble(c -> rank(c.name())));
        return List.copyOf(sorted);
    }

    private static double rank(String name) {
        int known = KUBE.indexOf(name);
        if (known >= 0) {
            return known;
        }
        return (name.startsWith(PostStartHook.PREFIX) ? LAST_HOOK : STORAGE_SIDE) + 0.5;
    }
}

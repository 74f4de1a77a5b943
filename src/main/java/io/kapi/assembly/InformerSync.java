package io.kapi.assembly;

import io.kapi.health.HealthCheck;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.GroupVersionResource;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * kube-apiserver's {@code informer-sync} readiness check: the server is not ready while one of the informers
 * of its own request path (those its admission plugins, authenticators, authorizers and flow control asked
 * for, which {@code resources} gives) has not listed its resource once, so that nothing it decides is decided
 * on an empty cache. The informers of the controllers that run in-process are kube-controller-manager's, whose
 * readiness is not the API server's, and kube's aggregator and other components keep informers of their own,
 * checked by their hooks. {@code /readyz} only.
 */
record InformerSync(SharedInformers informers, Supplier<Set<GroupVersionResource>> resources) implements HealthCheck {

    @Override
    public String name() {
        return "informer-sync";
    }

    @Override
    public void check() {
        List<GroupVersionResource> waiting = informers.notSynced(resources.get());
        if (!waiting.isEmpty()) {
            List<String> names = waiting.stream().map(r -> r.group().isEmpty() ? r.version() + "/" + r.resource()
                    : r.group() + "/" + r.version() + "/" + r.resource()).toList();
            throw new IllegalStateException(waiting.size() + " informers not started yet: " + names);
        }
    }

    @Override
    public boolean readyzOnly() {
        return true;
    }
}

package io.kapi.assembly;

import io.kapi.health.HealthCheck;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.GroupVersionResource;
import java.util.List;

/**
 * kube-apiserver's {@code informer-sync} readiness check: the server is not ready while one of its shared
 * informers (those its controllers, admission plugins and flow control read) has not listed its resource
 * once, so that nothing it decides is decided on an empty cache. {@code /readyz} only.
 */
record InformerSync(SharedInformers informers) implements HealthCheck {

    @Override
    public String name() {
        return "informer-sync";
    }

    @Override
    public void check() {
        List<GroupVersionResource> waiting = informers.notSynced();
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

package io.kapi.assembly;

import io.kapi.health.HealthCheck;
import io.kapi.storage.Storage;

/**
 * The storage check, under kube-apiserver's names ({@code etcd}, {@code etcd-readiness}) so that
 * probes and dashboards written for kube-apiserver find it, whichever backend serves.
 */
record StorageHealth(String name, Storage storage) implements HealthCheck {

    @Override
    public void check() {
        if (!storage.healthy()) {
            throw new IllegalStateException("storage backend is not healthy");
        }
    }
}

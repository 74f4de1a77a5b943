package io.kapi.assembly;

import io.kapi.health.HealthCheck;
import io.kapi.storage.Storage;

/**
 * The storage check, under kube-apiserver's names ({@code etcd} on all three endpoints,
 * {@code etcd-readiness} on {@code /readyz} only) so that probes and dashboards written for kube-apiserver
 * find it, whichever backend serves.
 */
record StorageHealth(String name, Storage storage, boolean readyzOnly) implements HealthCheck {

    static StorageHealth liveness(Storage storage) {
        return new StorageHealth("etcd", storage, false);
    }

    static StorageHealth readiness(Storage storage) {
        return new StorageHealth("etcd-readiness", storage, true);
    }

    @Override
    public void check() {
        if (!storage.healthy()) {
            throw new IllegalStateException("storage backend is not healthy");
        }
    }
}

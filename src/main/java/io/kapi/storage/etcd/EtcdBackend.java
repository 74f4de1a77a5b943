package io.kapi.storage.etcd;

import io.kapi.storage.Storage;
import io.kapi.storage.StorageOptions;

/** Opens the etcd3 backend; use {@link io.kapi.storage.backends.Storages#etcd}. */
public final class EtcdBackend {

    private EtcdBackend() {
    }

    /**
     * A store on the etcd cluster of {@code config}. Connecting is lazy: the first call that needs etcd
     * fails with {@link io.kapi.storage.StorageException.Unavailable} if it cannot be reached.
     */
    public static Storage open(EtcdConfig config, StorageOptions options) {
        return new EtcdStorage(config, options);
    }
}

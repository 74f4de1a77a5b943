package io.kapi.assembly;

import io.kapi.storage.Storage;
import io.kapi.storage.StorageOptions;
import io.kapi.storage.backends.Storages;

/** Opens the storage backend the configuration names. */
final class StorageBackends {

    private StorageBackends() {
    }

    static Storage open(ApiConfig config) {
        return switch (config.storageBackend()) {
            case "memory" -> Storages.memory();
            case "embedded" -> Storages.embedded(config.dataDir().resolve("store"));
            case "etcd3" -> Storages.etcd(config.etcd(), StorageOptions.DEFAULT);
            default -> throw new IllegalArgumentException(
                    "storage backend \"" + config.storageBackend() + "\" is not available (use embedded, memory or etcd3)");
        };
    }
}

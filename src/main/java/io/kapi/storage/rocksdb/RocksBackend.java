package io.kapi.storage.rocksdb;

import io.kapi.storage.Storage;
import io.kapi.storage.StorageOptions;
import java.nio.file.Path;

/** Opens the embedded RocksDB backend; use {@link io.kapi.storage.backends.Storages#embedded(Path)}. */
public final class RocksBackend {

    private RocksBackend() {
    }

    public static Storage open(Path dir, StorageOptions options) {
        return RocksStorage.open(dir, options);
    }
}

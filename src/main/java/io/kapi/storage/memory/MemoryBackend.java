package io.kapi.storage.memory;

import io.kapi.storage.Storage;
import io.kapi.storage.StorageOptions;

/** Opens the in-memory backend; use {@link io.kapi.storage.backends.Storages#memory()}. */
public final class MemoryBackend {

    private MemoryBackend() {
    }

    public static Storage open(StorageOptions options) {
        return new MemoryStorage(options);
    }
}

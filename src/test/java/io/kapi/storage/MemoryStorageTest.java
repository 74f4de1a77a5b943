package io.kapi.storage;

import io.kapi.storage.backends.Storages;
import org.junit.jupiter.api.DisplayName;

@DisplayName("memory storage")
final class MemoryStorageTest extends StorageContract {
    @Override
    protected Storage open(StorageOptions options) {
        return Storages.memory(options);
    }

    @Override
    protected boolean gapFreeRevisions() {
        return true;
    }
}

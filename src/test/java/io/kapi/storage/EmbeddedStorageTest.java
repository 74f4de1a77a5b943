package io.kapi.storage;

import io.kapi.storage.backends.Storages;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("embedded (RocksDB) storage")
final class EmbeddedStorageTest extends StorageContract {
    private final AtomicInteger opened = new AtomicInteger();

    @TempDir
    Path dir;

    @Override
    protected Storage open(StorageOptions options) {
        return Storages.embedded(dir.resolve("db" + opened.incrementAndGet()), options);
    }

    @Override
    protected boolean gapFreeRevisions() {
        return true;
    }
}

package io.kapi.storage.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kapi.fixtures.Await;
import io.kapi.storage.Storage;
import io.kapi.storage.StorageOptions;
import io.kapi.storage.backends.Storages;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("automatic compaction")
final class AutoCompactorTest {
    private static final StorageOptions MANUAL = StorageOptions.DEFAULT.withCompactionCheckInterval(Duration.ZERO);

    @Test
    @DisplayName("should compact to the revision seen one retention period ago")
    void compactsByAge() {
        AtomicLong nanos = new AtomicLong();
        try (Storage storage = Storages.memory(MANUAL)) {
            var compactor = new AutoCompactor(storage, MANUAL.withHistoryRetention(Duration.ofMinutes(5)), nanos::get);
            write(storage, 10);
            compactor.check(); // t=0, rev 10
            nanos.addAndGet(Duration.ofMinutes(3).toNanos());
            write(storage, 10);
            compactor.check(); // t=3, rev 20: nothing is 5 minutes old yet
            assertEquals(0, storage.compactedRevision());
            nanos.addAndGet(Duration.ofMinutes(2).toNanos());
            write(storage, 10);
            compactor.check(); // t=5, rev 30: rev 10 is 5 minutes old
            assertEquals(10, storage.compactedRevision());
            nanos.addAndGet(Duration.ofMinutes(3).toNanos());
            compactor.check(); // t=8: rev 20 (t=3) is 5 minutes old
            assertEquals(20, storage.compactedRevision());
        }
    }

    @Test
    @DisplayName("should keep at most the configured number of revisions, whatever their age")
    void compactsByCount() {
        try (Storage storage = Storages.memory(MANUAL)) {
            var compactor = new AutoCompactor(storage, MANUAL.withMaxHistoryRevisions(25), () -> 0L);
            write(storage, 100);
            compactor.check();
            assertEquals(75, storage.compactedRevision());
        }
    }

    @Test
    @DisplayName("should run on its own when an interval is set")
    void runsPeriodically() throws InterruptedException {
        StorageOptions options = StorageOptions.DEFAULT
                .withCompactionCheckInterval(Duration.ofMillis(20)).withMaxHistoryRevisions(5);
        try (Storage storage = Storages.memory(options)) {
            write(storage, 50);
            Await.atMost(Duration.ofSeconds(5)).every(Duration.ofMillis(10)).poll(storage::compactedRevision,
                    compacted -> compacted >= 45);
            assertEquals(45, storage.compactedRevision());
        }
    }

    private static void write(Storage storage, int count) {
        for (int i = 0; i < count; i++) {
            storage.create("/k/" + storage.currentRevision(), new byte[0]);
        }
    }
}

package io.kapi.storage.rocksdb;

import io.kapi.storage.KeyValue;
import io.kapi.storage.RangeResult;
import io.kapi.storage.Storage;
import io.kapi.storage.StorageException;
import io.kapi.storage.StorageOptions;
import io.kapi.storage.Watch;
import io.kapi.storage.WatchEvent;
import io.kapi.storage.core.AutoCompactor;
import io.kapi.storage.core.History;
import io.kapi.storage.core.Mutation;
import io.kapi.storage.core.WatchHub;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * The embedded durable backend on RocksDB. Writes go through the {@link GroupCommitWriter}; reads
 * run on the caller's thread ({@link SnapshotReader}). Closing waits for in-flight reads, since a
 * native handle must never be used after it is freed.
 */
final class RocksStorage implements Storage, History {

    private final Db db;
    private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
    private final WatchHub hub;
    private final GroupCommitWriter writer;
    private final AutoCompactor compactor;
    private boolean closed;

    private RocksStorage(Db db, StorageOptions options) {
        this.db = db;
        long revision = db.metaLong(Db.REVISION);
        this.hub = new WatchHub(this, options.watchQueueCapacity(), revision);
        this.writer = new GroupCommitWriter(db, hub::publish);
        this.compactor = new AutoCompactor(this, options);
    }

    static RocksStorage open(Path dir, StorageOptions options) {
        return new RocksStorage(Db.open(dir), options);
    }

    @Override
    public long currentRevision() {
        return writer.revision();
    }

    @Override
    public boolean localRevision() {
        return true;
    }

    @Override
    public KeyValue create(String key, byte[] value) {
        return writer.write(new Mutation.Create(key, value));
    }

    @Override
    public Optional<KeyValue> get(String key) {
        return reading(() -> {
            try {
                byte[] bytes = db.rocks().get(db.kv(), Codec.key(key));
                return Optional.ofNullable(bytes == null ? null : Codec.decodeValue(key, bytes));
            } catch (RocksDBException e) {
                throw new StorageException.Unavailable("cannot read " + key, e);
            }
        });
    }

    /** The SST files' and the memtables' bytes, as RocksDB counts them. */
    @Override
    public long sizeBytes() {
        return reading(() -> {
            try {
                return db.rocks().getAggregatedLongProperty("rocksdb.total-sst-files-size")
                        + db.rocks().getAggregatedLongProperty("rocksdb.cur-size-all-mem-tables");
            } catch (RocksDBException e) {
                return -1L;
            }
        });
    }

    @Override
    public RangeResult range(String prefix, String startKey, int limit, long revision) {
        return reading(() -> new SnapshotReader(db).range(prefix, startKey, limit, revision));
    }

    @Override
    public KeyValue update(String key, byte[] value, long expectedModRevision) {
        return writer.write(new Mutation.Update(key, value, expectedModRevision));
    }

    @Override
    public KeyValue delete(String key, long expectedModRevision) {
        return writer.write(new Mutation.Delete(key, expectedModRevision));
    }

    @Override
    public Watch watch(String prefix, long fromRevision, Consumer<WatchEvent> listener) {
        return hub.watch(prefix, fromRevision, listener);
    }

    @Override
    public void compact(long revision) {
        writer.compact(revision);
    }

    @Override
    public long compactedRevision() {
        return writer.compacted();
    }

    @Override
    public void replay(long after, long upTo, Predicate<WatchEvent> sink) {
        reading(() -> {
            try (RocksIterator it = db.rocks().newIterator(db.log())) {
                for (it.seek(Codec.revision(after + 1)); it.isValid(); it.next()) {
                    long revision = Codec.revision(it.key());
                    if (revision > upTo || !sink.test(Codec.decodeEvent(revision, it.value()))) {
                        break;
                    }
                }
            }
            return null;
        });
    }

    @Override
    public boolean healthy() {
        lifecycle.readLock().lock();
        try {
            return !closed && writer.healthy();
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    @Override
    public void close() {
        compactor.close();
        writer.close();
        hub.close();
        lifecycle.writeLock().lock();
        try {
            if (!closed) {
                closed = true;
                db.close();
            }
        } finally {
            lifecycle.writeLock().unlock();
        }
    }

    private <T> T reading(Supplier<T> read) {
        lifecycle.readLock().lock();
        try {
            if (closed) {
                throw new StorageException.Unavailable("storage closed", null);
            }
            return read.get();
        } finally {
            lifecycle.readLock().unlock();
        }
    }
}

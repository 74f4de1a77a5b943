package io.kapi.storage.rocksdb;

import io.kapi.storage.KeyValue;
import io.kapi.storage.StorageException;
import io.kapi.storage.WatchEvent;
import io.kapi.storage.core.Events;
import io.kapi.storage.core.Mutation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The single writer of the embedded store, with group commit.
 *
 * <p>Callers queue their write and wait on a future (which unmounts a virtual thread; a synced JNI
 * write on the caller's virtual thread would pin one of the few carriers for a whole fsync). One
 * platform thread takes everything queued, checks each compare-and-swap against the current state
 * plus the earlier writes of the same batch (serialised, so CAS is exact), and writes the batch,
 * the new revision and the compacted revision in one {@link WriteBatch} with a synced WAL. Only
 * then are the callers answered and the events published: one fsync serves every writer that
 * queued during the previous one.
 */
final class GroupCommitWriter implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(GroupCommitWriter.class.getName());
    private static final int MAX_BATCH = 1024;

    private record Compact(long revision) {
    }

    private record Pending(Object op, CompletableFuture<Object> done) {
    }

    private static final Pending STOP = new Pending(null, null);

    private final Db db;
    private final Consumer<List<WatchEvent>> onCommit;
    private final LinkedBlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    private final ReentrantReadWriteLock gate = new ReentrantReadWriteLock();
    private final WriteOptions sync = new WriteOptions().setSync(true);
    private final Thread thread;
    private boolean closed;
    private volatile long revision;
    private volatile long compacted;
    private volatile boolean failing;

    /** @param onCommit called on the writer thread with each durable batch's events, in order */
    GroupCommitWriter(Db db, Consumer<List<WatchEvent>> onCommit) {
        this.db = db;
        this.onCommit = onCommit;
        this.revision = db.metaLong(Db.REVISION);
        this.compacted = db.metaLong(Db.COMPACTED);
        this.thread = Thread.ofPlatform().name("kapi-rocksdb-writer").daemon().start(this::run);
    }

    long revision() {
        return revision;
    }

    long compacted() {
        return compacted;
    }

    boolean healthy() {
        return !failing && thread.isAlive();
    }

    /** Applies {@code mutation} durably; returns what the Storage write method returns. */
    KeyValue write(Mutation mutation) {
        return (KeyValue) submit(mutation);
    }

    void compact(long target) {
        submit(new Compact(target));
    }

    /** Stops accepting writes, finishes the queued ones, and stops the thread. */
    @Override
    public void close() {
        gate.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            queue.add(STOP);
        } finally {
            gate.writeLock().unlock();
        }
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sync.close();
    }

    private Object submit(Object op) {
        CompletableFuture<Object> done = new CompletableFuture<>();
        gate.readLock().lock();
        try {
            if (closed) {
                throw new StorageException.Unavailable("storage closed", null);
            }
            queue.add(new Pending(op, done));
        } finally {
            gate.readLock().unlock();
        }
        try {
            return done.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof StorageException storageException) {
                throw storageException;
            }
            throw new StorageException.Unavailable("write failed", e.getCause());
        }
    }

    private void run() {
        List<Pending> batch = new ArrayList<>();
        boolean stop = false;
        while (!stop) {
            try {
                batch.add(queue.take());
            } catch (InterruptedException e) {
                continue; // only close() stops the writer, after the queued writes
            }
            queue.drainTo(batch, MAX_BATCH - 1);
            stop = batch.remove(STOP);
            if (!batch.isEmpty()) {
                commit(batch);
            }
            batch.clear();
        }
    }

    private void commit(List<Pending> batch) {
        long rev = revision;
        long compactTo = compacted;
        Map<String, KeyValue> written = new HashMap<>(); // this batch's writes; null value = deleted
        List<WatchEvent> events = new ArrayList<>();
        Object[] results = new Object[batch.size()];
        try (WriteBatch writes = new WriteBatch()) {
            for (int i = 0; i < batch.size(); i++) {
                switch (batch.get(i).op()) {
                    case Mutation mutation -> {
                        String key = mutation.key();
                        KeyValue current = written.containsKey(key) ? written.get(key) : read(key);
                        WatchEvent event;
                        try {
                            event = mutation.apply(current, rev + 1);
                        } catch (StorageException e) {
                            results[i] = e;
                            continue;
                        }
                        rev++;
                        KeyValue now = Events.current(event);
                        if (now == null) {
                            writes.delete(db.kv(), Codec.key(key));
                        } else {
                            writes.put(db.kv(), Codec.key(key), Codec.encodeValue(now));
                        }
                        writes.put(db.log(), Codec.revision(rev), Codec.encodeEvent(event));
                        written.put(key, now);
                        events.add(event);
                        results[i] = Mutation.result(event);
                    }
                    case Compact compact -> {
                        long target = Math.min(compact.revision(), rev);
                        if (target > compactTo) {
                            writes.deleteRange(db.log(), Codec.revision(0), Codec.revision(target + 1));
                            compactTo = target;
                        }
                        results[i] = Boolean.TRUE;
                    }
                    default -> throw new IllegalStateException("unknown op " + batch.get(i).op());
                }
            }
            if (rev != revision || compactTo != compacted) {
                writes.put(db.meta(), Db.REVISION, Codec.revision(rev));
                writes.put(db.meta(), Db.COMPACTED, Codec.revision(compactTo));
                db.rocks().write(sync, writes);
            }
        } catch (RocksDBException | RuntimeException e) {
            failing = true;
            LOG.log(System.Logger.Level.ERROR, "storage write of " + batch.size() + " operations failed", e);
            StorageException failure = new StorageException.Unavailable("storage write failed: " + e.getMessage(), e);
            batch.forEach(pending -> pending.done().completeExceptionally(failure));
            return;
        }
        failing = false;
        compacted = compactTo;
        try {
            onCommit.accept(events);
        } catch (RuntimeException e) { // the writes are durable: answer the callers regardless
            LOG.log(System.Logger.Level.ERROR, "publishing committed events failed", e);
        }
        // only now: a progress request made after currentRevision() saw rev must be answered at rev or later
        revision = rev;
        for (int i = 0; i < batch.size(); i++) {
            if (results[i] instanceof StorageException e) {
                batch.get(i).done().completeExceptionally(e);
            } else {
                batch.get(i).done().complete(results[i]);
            }
        }
    }

    private KeyValue read(String key) throws RocksDBException {
        byte[] bytes = db.rocks().get(db.kv(), Codec.key(key));
        return bytes == null ? null : Codec.decodeValue(key, bytes);
    }
}

package io.kapi.storage.memory;

import io.kapi.storage.KeySpace;
import io.kapi.storage.KeyValue;
import io.kapi.storage.RangeResult;
import io.kapi.storage.Snapshots;
import io.kapi.storage.Storage;
import io.kapi.storage.StorageException;
import io.kapi.storage.StorageOptions;
import io.kapi.storage.Watch;
import io.kapi.storage.WatchEvent;
import io.kapi.storage.core.AutoCompactor;
import io.kapi.storage.core.Events;
import io.kapi.storage.core.History;
import io.kapi.storage.core.KeySpaceDiff;
import io.kapi.storage.core.Mutation;
import io.kapi.storage.core.PageBuilder;
import io.kapi.storage.core.WatchHub;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The in-memory backend: an MVCC index (key → its kept versions) plus an event log by revision.
 * Writes are serialised by one lock (so compare-and-swap is exact and revisions gap-free); reads
 * take no lock: a read at revision R picks, per key, the last version at or before R. A restore
 * ({@link Snapshots}) is one critical section of that lock whose writes become visible to readers at
 * once, when the revision moves past the last of them.
 */
final class MemoryStorage implements Storage, History, Snapshots {

    private final ConcurrentSkipListMap<String, KeyVersions> keys = new ConcurrentSkipListMap<>();
    private final ConcurrentSkipListMap<Long, WatchEvent> log = new ConcurrentSkipListMap<>();
    private final ReentrantLock writeLock = new ReentrantLock();
    private final WatchHub hub;
    private final AutoCompactor compactor;
    private volatile long revision;
    private volatile long compacted;
    private volatile boolean closed;

    MemoryStorage(StorageOptions options) {
        this.hub = new WatchHub(this, options.watchQueueCapacity(), 0);
        this.compactor = new AutoCompactor(this, options);
    }

    @Override
    public long currentRevision() {
        return revision;
    }

    @Override
    public boolean localRevision() {
        return true;
    }

    @Override
    public KeyValue create(String key, byte[] value) {
        return write(new Mutation.Create(key, value));
    }

    @Override
    public Optional<KeyValue> get(String key) {
        KeyVersions versions = keys.get(key);
        return versions == null ? Optional.empty() : Optional.ofNullable(versions.latest());
    }

    @Override
    public RangeResult range(String prefix, String startKey, int limit, long atRevision) {
        long read = atRevision == 0 ? revision : atRevision;
        checkReadable(read);
        PageBuilder page = new PageBuilder(limit);
        for (Map.Entry<String, KeyVersions> entry
                : keys.tailMap(PageBuilder.firstKey(prefix, startKey), true).entrySet()) {
            if (!entry.getKey().startsWith(prefix)) {
                break;
            }
            KeyValue kv = entry.getValue().at(read);
            if (kv != null) {
                page.accept(kv);
            }
        }
        checkReadable(read); // a compaction during the read may have dropped versions it needed
        return page.build(read);
    }

    @Override
    public KeyValue update(String key, byte[] value, long expectedModRevision) {
        return write(new Mutation.Update(key, value, expectedModRevision));
    }

    @Override
    public KeyValue delete(String key, long expectedModRevision) {
        return write(new Mutation.Delete(key, expectedModRevision));
    }

    @Override
    public Watch watch(String prefix, long fromRevision, Consumer<WatchEvent> listener) {
        return hub.watch(prefix, fromRevision, listener);
    }

    @Override
    public void compact(long target) {
        writeLock.lock();
        try {
            long to = Math.min(target, revision);
            if (to <= compacted) {
                return;
            }
            NavigableMap<Long, WatchEvent> dropped = log.headMap(to, true);
            Set<String> touched = new HashSet<>();
            for (WatchEvent event : dropped.values()) {
                touched.add(Events.key(event));
            }
            compacted = to; // before pruning: readers re-check it after reading
            for (String key : touched) {
                KeyVersions versions = keys.get(key);
                if (versions != null && versions.compact(to)) {
                    keys.remove(key);
                }
            }
            dropped.clear();
        } finally {
            writeLock.unlock();
        }
    }

    @Override
    public long compactedRevision() {
        return compacted;
    }

    @Override
    public void replay(long after, long upTo, Predicate<WatchEvent> sink) {
        for (WatchEvent event : log.subMap(after, false, upTo, true).values()) {
            if (!sink.test(event)) {
                return;
            }
        }
    }

    @Override
    public boolean healthy() {
        return !closed;
    }

    @Override
    public void close() {
        closed = true;
        compactor.close();
        hub.close();
    }

    private KeyValue write(Mutation mutation) {
        writeLock.lock();
        try {
            ensureOpen();
            long next = revision + 1;
            WatchEvent event = apply(mutation, next);
            hub.publish(List.of(event));
            revision = next; // after publishing: a progress request that saw it is answered at it or later
            return Mutation.result(event);
        } finally {
            writeLock.unlock();
        }
    }

    /** Writer only (under the lock): checks and records one write at {@code next}, not yet visible. */
    private WatchEvent apply(Mutation mutation, long next) {
        KeyVersions versions = keys.get(mutation.key());
        WatchEvent event = mutation.apply(versions == null ? null : versions.latest(), next);
        if (versions == null) {
            versions = new KeyVersions();
            keys.put(mutation.key(), versions);
        }
        versions.append(next, Events.current(event));
        log.put(next, event);
        return event;
    }

    @Override
    public KeySpace snapshot() {
        long at = revision;
        return at == 0 ? new KeySpace(0, List.of()) : new KeySpace(at, range("", null, 0, at).items());
    }

    @Override
    public Restored restore(KeySpace snapshot, Predicate<String> scope) {
        writeLock.lock();
        try {
            ensureOpen();
            List<Mutation> writes = KeySpaceDiff.between(range("", null, 0, revision).items(), snapshot, scope);
            List<WatchEvent> events = new ArrayList<>(writes.size());
            long next = revision;
            for (Mutation write : writes) {
                events.add(apply(write, ++next)); // preconditions hold: nobody else writes meanwhile
            }
            hub.publish(events);
            revision = next;
            return KeySpaceDiff.summary(writes, next);
        } finally {
            writeLock.unlock();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new StorageException.Unavailable("storage closed", null);
        }
    }

    private void checkReadable(long read) {
        if (read < compacted) {
            throw new StorageException.Compacted(read, compacted);
        }
        if (read > revision) {
            throw new IllegalArgumentException("revision " + read + " is in the future (current " + revision + ")");
        }
    }
}

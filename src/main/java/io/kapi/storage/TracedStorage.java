package io.kapi.storage;

import io.kapi.tracing.TraceScope;
import io.kapi.tracing.Tracing;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A storage whose calls are spans of the request that makes them, named as kube-apiserver's etcd3
 * store names them ({@code Create etcd3}, {@code GuaranteedUpdate etcd3}, {@code Delete etcd3},
 * {@code Get etcd3}, {@code GetList etcd3}) whichever the backend, with the key. Calls outside a
 * traced request (controllers, the watch cache's own reads) make no span.
 */
public record TracedStorage(Storage storage) implements Storage {

    /** {@code storage}, traced when tracing is on; as it is otherwise, at no cost. */
    public static Storage of(Storage storage) {
        return Tracing.enabled() && !(storage instanceof TracedStorage) ? new TracedStorage(storage) : storage;
    }

    @Override
    public long currentRevision() {
        return storage.currentRevision();
    }

    @Override
    public KeyValue create(String key, byte[] value) {
        try (TraceScope span = Tracing.start("Create etcd3", "key", key)) {
            return storage.create(key, value);
        }
    }

    @Override
    public Optional<KeyValue> get(String key) {
        try (TraceScope span = Tracing.start("Get etcd3", "key", key)) {
            return storage.get(key);
        }
    }

    @Override
    public RangeResult range(String prefix, String startKey, int limit, long revision) {
        try (TraceScope span = Tracing.start("GetList etcd3", "key", prefix)) {
            span.attribute("limit", limit);
            return storage.range(prefix, startKey, limit, revision);
        }
    }

    @Override
    public KeyValue update(String key, byte[] value, long expectedModRevision) {
        try (TraceScope span = Tracing.start("GuaranteedUpdate etcd3", "key", key)) {
            return storage.update(key, value, expectedModRevision);
        }
    }

    @Override
    public KeyValue delete(String key, long expectedModRevision) {
        try (TraceScope span = Tracing.start("Delete etcd3", "key", key)) {
            return storage.delete(key, expectedModRevision);
        }
    }

    @Override
    public Watch watch(String prefix, long fromRevision, Consumer<WatchEvent> listener) {
        return storage.watch(prefix, fromRevision, listener);
    }

    @Override
    public void compact(long revision) {
        storage.compact(revision);
    }

    @Override
    public long compactedRevision() {
        return storage.compactedRevision();
    }

    @Override
    public boolean healthy() {
        return storage.healthy();
    }

    @Override
    public void close() {
        storage.close();
    }
}

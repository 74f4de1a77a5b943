package io.kapi.storage;

import io.kapi.metrics.StorageMetrics;
import io.kapi.tracing.TraceScope;
import io.kapi.tracing.Tracing;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A store whose requests are observed as kube-apiserver's etcd3 store observes them, whichever the backend:
 * recorded in {@code etcd_request_duration_seconds}, {@code etcd_requests_total} and
 * {@code etcd_request_errors_total} by operation ({@code create}, {@code get}, {@code list}, {@code update},
 * {@code delete}) and the group and resource of the key; and, inside a traced request, a span each, named as
 * kube names them ({@code Create etcd3}, {@code Get etcd3}, {@code GetList etcd3},
 * {@code GuaranteedUpdate etcd3}, {@code Delete etcd3}) with the key. Watches, compaction and health checks
 * pass through unobserved, as kube's do.
 */
public final class ObservedStorage implements Storage {

    /** The group and resource a key belongs to. */
    public record Owner(String group, String resource) {
    }

    private final Storage storage;
    private final StorageMetrics metrics;
    private final Function<String, Owner> owners;

    /** @param owners the group and resource of a key or prefix (bounded: from the served resources and the server's own keys) */
    public ObservedStorage(Storage storage, StorageMetrics metrics, Function<String, Owner> owners) {
        this.storage = storage;
        this.metrics = metrics;
        this.owners = owners;
    }

    /** The store behind this one. */
    public Storage unwrap() {
        return storage;
    }

    @Override
    public long currentRevision() {
        return storage.currentRevision();
    }

    @Override
    public boolean localRevision() {
        return storage.localRevision();
    }

    @Override
    public KeyValue create(String key, byte[] value) {
        return observed("create", "Create etcd3", key, () -> storage.create(key, value));
    }

    @Override
    public Optional<KeyValue> get(String key) {
        return observed("get", "Get etcd3", key, () -> storage.get(key));
    }

    @Override
    public RangeResult range(String prefix, String startKey, int limit, long revision) {
        return observed("list", "GetList etcd3", prefix, () -> storage.range(prefix, startKey, limit, revision));
    }

    @Override
    public KeyValue update(String key, byte[] value, long expectedModRevision) {
        return observed("update", "GuaranteedUpdate etcd3", key, () -> storage.update(key, value, expectedModRevision));
    }

    @Override
    public KeyValue delete(String key, long expectedModRevision) {
        return observed("delete", "Delete etcd3", key, () -> storage.delete(key, expectedModRevision));
    }

    /** Runs {@code call} as the span {@code span} (when traced) and records it as {@code operation}. */
    private <T> T observed(String operation, String span, String key, Supplier<T> call) {
        long start = System.nanoTime();
        boolean failed = true;
        try (TraceScope scope = Tracing.start(span, "key", key)) {
            T result = call.get();
            failed = false;
            return result;
        } finally {
            record(operation, key, start, failed);
        }
    }

    private void record(String operation, String key, long start, boolean failed) {
        Owner owner = owners.apply(key);
        metrics.request(operation, owner.group(), owner.resource(), start, failed);
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
    public long sizeBytes() {
        return storage.sizeBytes();
    }

    @Override
    public void close() {
        storage.close();
    }
}

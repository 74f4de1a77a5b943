package io.kapi.storage;

import io.kapi.metrics.StorageMetrics;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A store whose requests are recorded in kube's {@code etcd_request_duration_seconds},
 * {@code etcd_requests_total} and {@code etcd_request_errors_total}, by operation ({@code create},
 * {@code get}, {@code list}, {@code update}, {@code delete}) and the group and resource of the key, for
 * every backend. Watches, compaction and health checks pass through unrecorded, as kube's are.
 */
public final class MeteredStorage implements Storage {

    /** The group and resource a key belongs to. */
    public record Owner(String group, String resource) {
    }

    private final Storage storage;
    private final StorageMetrics metrics;
    private final Function<String, Owner> owners;

    /** @param owners the group and resource of a key or prefix (bounded: from the served resources and the server's own keys) */
    public MeteredStorage(Storage storage, StorageMetrics metrics, Function<String, Owner> owners) {
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
    public KeyValue create(String key, byte[] value) {
        long start = System.nanoTime();
        boolean failed = true;
        try {
            KeyValue kv = storage.create(key, value);
            failed = false;
            return kv;
        } finally {
            record("create", key, start, failed);
        }
    }

    @Override
    public Optional<KeyValue> get(String key) {
        long start = System.nanoTime();
        boolean failed = true;
        try {
            Optional<KeyValue> kv = storage.get(key);
            failed = false;
            return kv;
        } finally {
            record("get", key, start, failed);
        }
    }

    @Override
    public RangeResult range(String prefix, String startKey, int limit, long revision) {
        long start = System.nanoTime();
        boolean failed = true;
        try {
            RangeResult result = storage.range(prefix, startKey, limit, revision);
            failed = false;
            return result;
        } finally {
            record("list", prefix, start, failed);
        }
    }

    @Override
    public KeyValue update(String key, byte[] value, long expectedModRevision) {
        long start = System.nanoTime();
        boolean failed = true;
        try {
            KeyValue kv = storage.update(key, value, expectedModRevision);
            failed = false;
            return kv;
        } finally {
            record("update", key, start, failed);
        }
    }

    @Override
    public KeyValue delete(String key, long expectedModRevision) {
        long start = System.nanoTime();
        boolean failed = true;
        try {
            KeyValue kv = storage.delete(key, expectedModRevision);
            failed = false;
            return kv;
        } finally {
            record("delete", key, start, failed);
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

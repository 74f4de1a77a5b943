package io.kapi.storage.backends;

import io.kapi.storage.Snapshots;
import io.kapi.storage.Storage;
import io.kapi.storage.StorageOptions;
import io.kapi.storage.etcd.EtcdBackend;
import io.kapi.storage.etcd.EtcdConfig;
import io.kapi.storage.memory.MemoryBackend;
import io.kapi.storage.rocksdb.RocksBackend;
import java.nio.file.Path;
import java.util.Optional;

/** Opens the built-in {@link Storage} backends. */
public final class Storages {

    private Storages() {
    }

    /** A fresh, empty in-memory store (tests, benchmarks); everything is lost on close. */
    public static Storage memory() {
        return memory(StorageOptions.DEFAULT);
    }

    public static Storage memory(StorageOptions options) {
        return MemoryBackend.open(options);
    }

    /** The snapshot capability of {@code storage}: present for the memory backend, empty for the others. */
    public static Optional<Snapshots> snapshots(Storage storage) {
        return storage instanceof Snapshots s ? Optional.of(s) : Optional.empty();
    }

    /**
     * The embedded durable store in {@code dir} (created if missing), backed by RocksDB. Reopening a
     * directory continues its data and revision; only one process may have it open.
     *
     * @throws StorageException.Unavailable if the directory cannot be opened (e.g. locked by another process)
     */
    public static Storage embedded(Path dir) {
        return embedded(dir, StorageOptions.DEFAULT);
    }

    public static Storage embedded(Path dir, StorageOptions options) {
        return RocksBackend.open(dir, options);
    }

    /**
     * A store on an etcd cluster, laid out as kube-apiserver lays it out under {@link EtcdConfig#prefix()}.
     * Several Kapi processes (and kube-apiservers) may share one cluster.
     */
    public static Storage etcd(EtcdConfig config, StorageOptions options) {
        return EtcdBackend.open(config, options);
    }
}

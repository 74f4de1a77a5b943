package io.kapi.storage;

import java.util.Optional;
import java.util.function.Consumer;

/**
 * A revisioned key-value store with watch, modelled on etcd's API. Every successful write gets a
 * revision of one global counter that is unique to that write and greater than the revision of every
 * write before it; that revision becomes the written key's {@code modRevision} and, above, the
 * object's resourceVersion. Revisions only grow, also across restarts. They need not be consecutive:
 * on etcd the counter also moves with writes outside Kapi's keys (another prefix, etcd's
 * {@code compact_rev_key}, the progress fences of {@link Watch#requestProgress()}); the memory and
 * embedded backends happen to count +1 per write. Nobody may rely on gaps or their absence.
 *
 * <p>Durability: a write method returns only once the write is durable (for the embedded backend,
 * synced to disk; for etcd, committed by a quorum; concurrent writers may share one sync). A write
 * that throws did not happen, except {@link StorageException.Unavailable} from etcd, whose outcome
 * may be unknown (the request may have reached etcd before the connection broke or the deadline
 * passed), exactly as for kube-apiserver: read again before retrying.
 *
 * <p>Thread safety: every method may be called from many threads at once.
 *
 * <p>Keys: absolute, {@code /registry/...} as kube-apiserver lays them out; the etcd backend maps
 * {@code /registry} onto its {@code --etcd-prefix} and accepts no other keys (a range or watch prefix
 * that is a prefix of {@code /registry/}, such as {@code ""}, means all of Kapi's keys). Keys ending
 * in {@code ~kapi-progress} are reserved for etcd's progress fences.
 *
 * <p>Size: a write whose key and value exceed {@link #MAX_REQUEST_BYTES} fails with
 * {@link StorageException.TooLarge} on every backend (etcd refuses such requests).
 *
 * <p>Values: the store keeps the {@code byte[]} passed to a write as is (no copy): callers must
 * not change it afterwards, and must not change arrays they read.
 *
 * <p>Key order: ascending {@link String#compareTo} order, which equals byte order of the UTF-8 keys
 * for the ASCII keys Kubernetes uses.
 *
 * <p>History: old revisions stay readable (by {@link #range} and {@link #watch}) until compacted;
 * backends compact automatically (see {@link StorageOptions}; etcd as kube-apiserver does, every
 * {@code --etcd-compaction-interval}), so a caller must be ready for
 * {@link StorageException.Compacted} and re-list, as kube-apiserver does on 410 Gone.
 *
 * <p>Implementations: {@link Storages#memory()}, {@link Storages#embedded(java.nio.file.Path)} and
 * {@link Storages#etcd}.
 */
public interface Storage extends AutoCloseable {

    /** etcd's default {@code --max-request-bytes} (1.5 MiB): the most a key and its value may take together. */
    int MAX_REQUEST_BYTES = 1536 * 1024;

    /**
     * The revision of the latest write (0 when nothing was ever written), linearizable: at least the
     * revision of every write that returned before this call. On etcd this is a quorum round trip.
     *
     * @throws StorageException.Unavailable if a remote backend cannot be reached
     */
    long currentRevision();

    /**
     * Whether {@link #currentRevision} is answered in this process, without a round trip (the embedded and
     * memory stores): a consistent read may then ask it first and be served by a watch cache once the cache
     * has caught up, instead of reading and decoding the value from storage.
     */
    default boolean localRevision() {
        return false;
    }

    /**
     * Creates {@code key} if absent.
     *
     * @return the created key-value, whose create and mod revisions are the new revision
     * @throws StorageException.KeyExists if the key exists
     */
    KeyValue create(String key, byte[] value);

    /** The current value of {@code key}, or empty. */
    Optional<KeyValue> get(String key);

    /**
     * Reads keys starting with {@code prefix} in ascending key order, as they were at a revision.
     *
     * @param prefix the key prefix, e.g. {@code /registry/configmaps/} or {@code /registry/configmaps/ns/}
     * @param startKey return only keys {@code >= startKey} (null: from the start of the prefix);
     *        paging passes the last key of the previous page plus {@code "\0"}
     * @param limit at most this many items; 0 means no limit
     * @param revision read the snapshot at this revision; 0 means the current revision
     * @throws StorageException.Compacted if {@code revision} is older than the oldest kept revision
     * @throws IllegalArgumentException if {@code revision} is newer than {@link #currentRevision()}
     */
    RangeResult range(String prefix, String startKey, int limit, long revision);

    /**
     * Replaces the value of {@code key} if its modRevision is still {@code expectedModRevision}.
     *
     * @return the new key-value, whose modRevision is the new revision
     * @throws StorageException.KeyNotFound if the key does not exist
     * @throws StorageException.Conflict if the key's modRevision differs (carrying the current value)
     */
    KeyValue update(String key, byte[] value, long expectedModRevision);

    /**
     * Deletes {@code key}; when {@code expectedModRevision} is not 0, only if the key's modRevision
     * is still that.
     *
     * @return the deleted key-value as it was just before the delete
     * @throws StorageException.KeyNotFound if the key does not exist
     * @throws StorageException.Conflict if a precondition was given and the modRevision differs
     */
    KeyValue delete(String key, long expectedModRevision);

    /**
     * Watches keys under {@code prefix} for writes after {@code fromRevision} (exclusive), delivering
     * them in revision order to {@code listener} from a thread of the store's (one thread per watch:
     * calls to one listener never overlap). History after {@code fromRevision} is replayed first,
     * then live writes follow with no gap and no duplicate. The listener must not block for long: a
     * listener that falls too far behind ({@link StorageOptions#watchQueueCapacity()} pending live
     * events; the history up to the revision current when the watch started does not count) receives
     * a {@link WatchEvent.Error} and the watch ends; writers and other watchers never wait for it. A
     * listener that throws ends its watch. Closing the store ends every watch with an
     * {@link WatchEvent.Error}. A remote backend resumes a broken connection by itself (from the last
     * delivered revision, so still without gap or duplicate) and ends the watch with an error only
     * when it cannot.
     *
     * @param fromRevision deliver events with revision greater than this; 0 means only future writes
     * @throws StorageException.Compacted if events after {@code fromRevision} are no longer kept
     */
    Watch watch(String prefix, long fromRevision, Consumer<WatchEvent> listener);

    /**
     * Forgets history before {@code revision}: afterwards {@code revision} is the oldest one a range
     * may read and a watch may start from. Current values are kept. A revision at or below the
     * compacted one is ignored; one above the current revision compacts to the current one.
     */
    void compact(long revision);

    /** The oldest revision a range or watch may still ask for. */
    long compactedRevision();

    /**
     * Whether the backend is healthy enough to serve (for the {@code etcd} health checks). On etcd a
     * quorum read bounded by a short timeout, as kube-apiserver's check: false without quorum.
     */
    boolean healthy();

    /**
     * The space the store's data takes on disk, in bytes ({@code apiserver_storage_size_bytes}); -1 when the
     * backend cannot tell.
     */
    default long sizeBytes() {
        return -1;
    }

    @Override
    void close();
}

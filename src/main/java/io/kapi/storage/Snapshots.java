package io.kapi.storage;

import java.util.function.Predicate;

/**
 * A store whose whole key space can be captured and brought back, so that tests can share one
 * server and still start each from a known state. Only the memory backend offers it (see
 * {@link Storages#snapshots(Storage)}).
 *
 * <p>A restore is not a rewind: revisions keep growing. It writes the difference between the current
 * key space and the snapshot as ordinary writes, each with its own new revision, in key order: keys
 * that are absent now are created, keys whose value differs are updated to the snapshot's value, keys
 * the snapshot lacks are deleted. Keys whose value is the snapshot's are not written. So every
 * object's resourceVersion after a restore is at least the one it had before, watches see the
 * changes as ordinary events (a watch from a revision before the restore replays them), and a
 * compare-and-swap with a pre-restore modRevision fails with a conflict as after any other write.
 * The restore is atomic for readers that read at a revision: a range at the store's current revision
 * sees either none of its writes or all of them.
 */
public interface Snapshots {

    /** The current key space, read at the current revision without blocking writers. */
    KeySpace snapshot();

    /**
     * Makes the key space equal to {@code snapshot} (see the class comment); concurrent writes wait
     * until it is done.
     *
     * @return what it wrote
     * @throws StorageException.Unavailable if the store is closed
     */
    default Restored restore(KeySpace snapshot) {
        return restore(snapshot, key -> true);
    }

    /**
     * Like {@link #restore(KeySpace)}, for the keys {@code scope} accepts only: other keys, present now
     * or in the snapshot, are neither written nor deleted (e.g. heartbeats the server keeps current).
     */
    Restored restore(KeySpace snapshot, Predicate<String> scope);

    /**
     * What a restore wrote.
     *
     * @param revision the store's revision after the restore (unchanged when nothing differed)
     * @param created keys created again
     * @param updated keys set back to their earlier value
     * @param deleted keys deleted because the snapshot lacks them
     */
    record Restored(long revision, int created, int updated, int deleted) {

        /** How many writes the restore made. */
        public int writes() {
            return created + updated + deleted;
        }
    }
}

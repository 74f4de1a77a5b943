package io.kapi.storage.memory;

import io.kapi.storage.KeyValue;
import java.util.Arrays;

/**
 * The kept versions of one key, oldest first, each a value or a tombstone. Appended and compacted by
 * the single writer (under the store's write lock); read without locks: readers see an immutable
 * {@link Chain} view, and the writer never overwrites a slot a published view covers.
 */
final class KeyVersions {

    /** One version; {@code kv == null} marks a delete. */
    private record Version(long revision, KeyValue kv) {
    }

    private record Chain(Version[] slots, int from, int to) {
    }

    private volatile Chain chain = new Chain(new Version[2], 0, 0);

    /** Writer only: adds the version written at {@code revision} ({@code kv} null for a delete). */
    void append(long revision, KeyValue kv) {
        Chain c = chain;
        Version[] slots = c.slots();
        int from = c.from();
        int to = c.to();
        if (to == slots.length) {
            int live = to - from;
            Version[] grown = new Version[Math.max(4, live * 2)];
            System.arraycopy(slots, from, grown, 0, live);
            slots = grown;
            from = 0;
            to = live;
        }
        slots[to] = new Version(revision, kv);
        chain = new Chain(slots, from, to + 1);
    }

    /** The latest value, or null if deleted or never written. */
    KeyValue latest() {
        Chain c = chain;
        return c.to() == c.from() ? null : c.slots()[c.to() - 1].kv();
    }

    /** The value as of {@code revision}, or null if the key did not exist then. */
    KeyValue at(long revision) {
        Chain c = chain;
        int index = floor(c, revision);
        return index < 0 ? null : c.slots()[index].kv();
    }

    /**
     * Writer only: forgets versions no read at or after {@code revision} can see.
     *
     * @return true if nothing is left (the key was deleted at or before {@code revision})
     */
    boolean compact(long revision) {
        Chain c = chain;
        int index = floor(c, revision);
        if (index < 0) {
            return c.to() == c.from();
        }
        int keepFrom = c.slots()[index].kv() == null ? index + 1 : index;
        if (keepFrom > c.from()) {
            // Copy rather than move "from": slots before it must stay readable for old views,
            // and a fresh array lets the dropped values be collected.
            Version[] kept = Arrays.copyOfRange(c.slots(), keepFrom, Math.max(keepFrom + 2, c.to()));
            chain = new Chain(kept, 0, c.to() - keepFrom);
        }
        return c.to() == keepFrom;
    }

    /** The index of the last version at or before {@code revision}, or -1. */
    private static int floor(Chain c, long revision) {
        int lo = c.from();
        int hi = c.to() - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (c.slots()[mid].revision() <= revision) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }
}

package io.kapi.storage;

import java.util.List;

/**
 * A store's whole key space as it was at one revision: every key that existed then with its value,
 * in ascending key order. What {@link Snapshots#snapshot()} captures and {@link Snapshots#restore}
 * brings back. Immutable; the values are the store's own arrays (never changed, see {@link Storage}),
 * so a snapshot costs one reference per key, not a copy of the data.
 *
 * @param revision the revision the key space was read at
 * @param entries the keys as they were at {@code revision}, ascending by key
 */
public record KeySpace(long revision, List<KeyValue> entries) {

    public KeySpace {
        entries = List.copyOf(entries);
        for (int i = 1; i < entries.size(); i++) {
            if (entries.get(i - 1).key().compareTo(entries.get(i).key()) >= 0) {
                throw new IllegalArgumentException("entries are not in ascending key order at " + entries.get(i).key());
            }
        }
    }

    /** How many keys the snapshot holds. */
    public int size() {
        return entries.size();
    }
}

package io.kapi.storage.core;

import io.kapi.storage.KeyValue;
import io.kapi.storage.KeySpace;
import io.kapi.storage.Snapshots;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * The writes that turn one key space into another, in key order: a create for a key only the target
 * has, an update for a key whose value differs, a delete for a key only the current one has. The
 * preconditions are the current modRevisions, so a backend that applies them one by one without a
 * lock still notices a concurrent writer (a conflict). Both inputs must be in ascending key order.
 */
public final class KeySpaceDiff {

    private KeySpaceDiff() {
    }

    /** The writes that make {@code current} equal to {@code target}'s entries, for the keys in {@code scope}. */
    public static List<Mutation> between(List<KeyValue> current, KeySpace target, Predicate<String> scope) {
        List<Mutation> writes = new ArrayList<>();
        current = current.stream().filter(kv -> scope.test(kv.key())).toList();
        List<KeyValue> wanted = target.entries().stream().filter(kv -> scope.test(kv.key())).toList();
        int i = 0;
        int j = 0;
        while (i < current.size() || j < wanted.size()) {
            KeyValue now = i < current.size() ? current.get(i) : null;
            KeyValue then = j < wanted.size() ? wanted.get(j) : null;
            int order = now == null ? 1 : then == null ? -1 : now.key().compareTo(then.key());
            if (order < 0) {
                writes.add(new Mutation.Delete(now.key(), now.modRevision()));
                i++;
            } else if (order > 0) {
                writes.add(new Mutation.Create(then.key(), then.value()));
                j++;
            } else {
                if (now.modRevision() != then.modRevision() && !Arrays.equals(now.value(), then.value())) {
                    writes.add(new Mutation.Update(now.key(), then.value(), now.modRevision()));
                }
                i++;
                j++;
            }
        }
        return writes;
    }

    /** Counts {@code writes} by kind, as the result of a restore that ended at {@code revision}. */
    public static Snapshots.Restored summary(List<Mutation> writes, long revision) {
        int created = 0;
        int updated = 0;
        int deleted = 0;
        for (Mutation write : writes) {
            switch (write) {
                case Mutation.Create c -> created++;
                case Mutation.Update u -> updated++;
                case Mutation.Delete d -> deleted++;
            }
        }
        return new Snapshots.Restored(revision, created, updated, deleted);
    }
}

package io.kapi.storage.rocksdb;

import io.kapi.storage.KeyValue;
import io.kapi.storage.RangeResult;
import io.kapi.storage.StorageException;
import io.kapi.storage.core.Events;
import io.kapi.storage.core.PageBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;

/**
 * Reads a prefix range at a revision from one consistent RocksDB snapshot. The snapshot holds the
 * current values at its head revision H; to read at an older revision R it undoes the logged writes
 * in (R, H]: a key written there is shown as it was before its first write after R.
 */
final class SnapshotReader {
    private final Db db;

    SnapshotReader(Db db) {
        this.db = db;
    }

    RangeResult range(String prefix, String startKey, int limit, long revision) {
        Snapshot snapshot = db.rocks().getSnapshot();
        try (ReadOptions options = new ReadOptions().setSnapshot(snapshot)) {
            long head = Codec.revision(db.rocks().get(db.meta(), options, Db.REVISION));
            long compacted = Codec.revision(db.rocks().get(db.meta(), options, Db.COMPACTED));
            long read = revision == 0 ? head : revision;
            if (read < compacted) {
                throw new StorageException.Compacted(read, compacted);
            }
            if (read > head) {
                throw new IllegalArgumentException("revision " + read + " is in the future (current " + head + ")");
            }
            String first = PageBuilder.firstKey(prefix, startKey);
            TreeMap<String, KeyValue> undone = new TreeMap<>();
            if (read < head) {
                undo(options, prefix, first, read, head, undone);
            }
            PageBuilder page = new PageBuilder(limit);
            merge(options, prefix, first, undone, page);
            return page.build(read);
        } catch (RocksDBException e) {
            throw new StorageException.Unavailable("cannot read range " + prefix, e);
        } finally {
            db.rocks().releaseSnapshot(snapshot);
        }
    }

    /** Collects, per key of the range written in (read, head], its value at {@code read} (null: absent). */
    private void undo(ReadOptions options, String prefix, String first, long read, long head,
            TreeMap<String, KeyValue> undone) throws RocksDBException {
        try (RocksIterator it = db.rocks().newIterator(db.log(), options)) {
            for (it.seek(Codec.revision(read + 1)); it.isValid(); it.next()) {
                long revision = Codec.revision(it.key());
                if (revision > head) {
                    break;
                }
                byte[] entry = it.value();
                String key = Codec.eventKey(entry);
                if (key.startsWith(prefix) && key.compareTo(first) >= 0 && !undone.containsKey(key)) {
                    undone.put(key, Events.previous(Codec.decodeEvent(revision, entry)));
                }
            }
            it.status();
        }
    }

    /** Merges the snapshot's current values with the undone ones, in key order, into the page. */
    private void merge(ReadOptions options, String prefix, String first, TreeMap<String, KeyValue> undone,
            PageBuilder page) throws RocksDBException {
        Iterator<Map.Entry<String, KeyValue>> older = undone.entrySet().iterator();
        Map.Entry<String, KeyValue> next = older.hasNext() ? older.next() : null;
        try (RocksIterator it = db.rocks().newIterator(db.kv(), options)) {
            for (it.seek(Codec.key(first)); it.isValid(); it.next()) {
                String key = new String(it.key(), StandardCharsets.UTF_8);
                if (!key.startsWith(prefix)) {
                    break;
                }
                while (next != null && next.getKey().compareTo(key) < 0) {
                    accept(page, next.getValue());
                    next = older.hasNext() ? older.next() : null;
                }
                if (next != null && next.getKey().equals(key)) {
                    accept(page, next.getValue());
                    next = older.hasNext() ? older.next() : null;
                } else if (page.wantsMore()) {
                    page.accept(Codec.decodeValue(key, it.value()));
                } else {
                    page.skip();
                }
            }
            it.status();
        }
        while (next != null) {
            accept(page, next.getValue());
            next = older.hasNext() ? older.next() : null;
        }
    }

    private static void accept(PageBuilder page, KeyValue kv) {
        if (kv != null) {
            page.accept(kv);
        }
    }
}

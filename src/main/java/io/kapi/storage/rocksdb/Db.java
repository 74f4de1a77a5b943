package io.kapi.storage.rocksdb;

import io.kapi.storage.StorageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.AbstractNativeReference;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * An open RocksDB with Kapi's three column families: {@code default} (meta: revision, compacted
 * revision), {@code kv} (current values) and {@code log} (one event per revision, for watch replay
 * and reads at past revisions; pruned by compaction).
 */
record Db(RocksDB rocks, ColumnFamilyHandle meta, ColumnFamilyHandle kv, ColumnFamilyHandle log,
        List<ColumnFamilyHandle> handles, List<AbstractNativeReference> owned) implements AutoCloseable {

    /** Block cache shared by the column families; hot keys and index blocks stay in memory. */
    private static final long BLOCK_CACHE_BYTES = 64L << 20;

    static final byte[] REVISION = "revision".getBytes(StandardCharsets.US_ASCII);
    static final byte[] COMPACTED = "compacted".getBytes(StandardCharsets.US_ASCII);

    static Db open(Path dir) {
        RocksDB.loadLibrary();
        DBOptions dbOptions = new DBOptions()
                .setCreateIfMissing(true)
                .setCreateMissingColumnFamilies(true)
                .setMaxBackgroundJobs(2)
                .setKeepLogFileNum(3)
                .setInfoLogLevel(InfoLogLevel.WARN_LEVEL);
        // Every create and update reads the key first (precondition check): a bloom filter keeps
        // lookups of absent keys off the disk.
        LRUCache cache = new LRUCache(BLOCK_CACHE_BYTES);
        BloomFilter bloom = new BloomFilter(10);
        ColumnFamilyOptions cfOptions = new ColumnFamilyOptions()
                .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache).setFilterPolicy(bloom));
        List<AbstractNativeReference> owned = List.of(dbOptions, cfOptions, bloom, cache);
        List<ColumnFamilyDescriptor> descriptors = List.of(
                new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, cfOptions),
                new ColumnFamilyDescriptor("kv".getBytes(StandardCharsets.US_ASCII), cfOptions),
                new ColumnFamilyDescriptor("log".getBytes(StandardCharsets.US_ASCII), cfOptions));
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try {
            Files.createDirectories(dir);
            RocksDB rocks = RocksDB.open(dbOptions, dir.toString(), descriptors, handles);
            return new Db(rocks, handles.get(0), handles.get(1), handles.get(2), List.copyOf(handles), owned);
        } catch (RocksDBException | IOException e) {
            handles.forEach(ColumnFamilyHandle::close);
            owned.forEach(AbstractNativeReference::close);
            throw new StorageException.Unavailable("cannot open storage in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Reads a meta counter (0 if never written). */
    long metaLong(byte[] name) {
        try {
            return Codec.revision(rocks.get(meta, name));
        } catch (RocksDBException e) {
            throw new StorageException.Unavailable("cannot read " + new String(name, StandardCharsets.US_ASCII), e);
        }
    }

    @Override
    public void close() {
        handles.forEach(ColumnFamilyHandle::close);
        try {
            rocks.closeE();
        } catch (RocksDBException e) {
            System.getLogger(Db.class.getName()).log(System.Logger.Level.WARNING, "closing RocksDB failed", e);
        }
        owned.forEach(AbstractNativeReference::close);
    }
}

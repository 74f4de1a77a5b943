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
import org.rocksdb.WriteBufferManager;

/**
 * An open RocksDB with Kapi's three column families: {@code default} (meta: revision, compacted
 * revision), {@code kv} (current values) and {@code log} (one event per revision, for watch replay
 * and reads at past revisions; pruned by compaction).
 *
 * <p>Memory is bounded: one LRU block cache of {@value #CACHE_MIB} MiB holds the data blocks, the
 * index and filter blocks (instead of unbounded table readers) and, charged to it through a write
 * buffer manager, the memtables ({@value #MEMTABLE_MIB} MiB together, each column family's flushed at
 * {@value #WRITE_BUFFER_MIB} MiB). Reads are few (the watch cache answers them; the store is read for
 * the precondition of a write and when the caches are primed), so a small cache costs little.
 */
record Db(RocksDB rocks, ColumnFamilyHandle meta, ColumnFamilyHandle kv, ColumnFamilyHandle log,
        List<ColumnFamilyHandle> handles, List<AbstractNativeReference> owned) implements AutoCloseable {

    static final int CACHE_MIB = 32;
    static final int MEMTABLE_MIB = 16;
    static final int WRITE_BUFFER_MIB = 8;

    static final byte[] REVISION = "revision".getBytes(StandardCharsets.US_ASCII);
    static final byte[] COMPACTED = "compacted".getBytes(StandardCharsets.US_ASCII);

    static Db open(Path dir) {
        NativeLibrary.load(dir);
        LRUCache cache = new LRUCache((long) CACHE_MIB << 20);
        WriteBufferManager memtables = new WriteBufferManager((long) MEMTABLE_MIB << 20, cache);
        DBOptions dbOptions = new DBOptions()
                .setCreateIfMissing(true)
                .setCreateMissingColumnFamilies(true)
                .setMaxBackgroundJobs(2)
                .setKeepLogFileNum(3)
                .setWriteBufferManager(memtables)
                .setInfoLogLevel(InfoLogLevel.WARN_LEVEL);
        // Every create and update reads the key first (precondition check): a bloom filter keeps
        // lookups of absent keys off the disk.
        BloomFilter bloom = new BloomFilter(10);
        ColumnFamilyOptions cfOptions = new ColumnFamilyOptions()
                .setWriteBufferSize((long) WRITE_BUFFER_MIB << 20)
                .setMaxWriteBufferNumber(2)
                .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache).setFilterPolicy(bloom)
                        .setCacheIndexAndFilterBlocks(true)
                        .setPinL0FilterAndIndexBlocksInCache(true));
        List<AbstractNativeReference> owned = List.of(dbOptions, cfOptions, bloom, memtables, cache);
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

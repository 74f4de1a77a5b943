package io.kapi.storage.rocksdb;

import io.kapi.storage.StorageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * An open RocksDB with Kapi's three column families: {@code default} (meta: revision, compacted
 * revision), {@code kv} (current values) and {@code log} (one event per revision, for watch replay
 * and reads at past revisions; pruned by compaction).
 */
record Db(RocksDB rocks, ColumnFamilyHandle meta, ColumnFamilyHandle kv, ColumnFamilyHandle log,
        List<ColumnFamilyHandle> handles, DBOptions dbOptions, ColumnFamilyOptions cfOptions)
        implements AutoCloseable {

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
        ColumnFamilyOptions cfOptions = new ColumnFamilyOptions();
        List<ColumnFamilyDescriptor> descriptors = List.of(
                new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, cfOptions),
                new ColumnFamilyDescriptor("kv".getBytes(StandardCharsets.US_ASCII), cfOptions),
                new ColumnFamilyDescriptor("log".getBytes(StandardCharsets.US_ASCII), cfOptions));
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try {
            Files.createDirectories(dir);
            RocksDB rocks = RocksDB.open(dbOptions, dir.toString(), descriptors, handles);
            return new Db(rocks, handles.get(0), handles.get(1), handles.get(2), List.copyOf(handles),
                    dbOptions, cfOptions);
        } catch (RocksDBException | IOException e) {
            handles.forEach(ColumnFamilyHandle::close);
            dbOptions.close();
            cfOptions.close();
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
        dbOptions.close();
        cfOptions.close();
    }
}

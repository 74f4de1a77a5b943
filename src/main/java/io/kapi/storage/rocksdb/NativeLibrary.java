package io.kapi.storage.rocksdb;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;

/**
 * Loads RocksDB's JNI library. RocksDB's own loader inflates the 15 MB library out of its jar into a
 * temporary file at every start (a tenth of a second of a restart); a build of Kapi unpacks it once
 * into a directory that {@code bin/kapi} names in the system property {@value #DIRECTORY}, and the
 * library is loaded from there when this platform's file is in it. Otherwise, and if that load fails,
 * RocksDB's loader does its usual work.
 *
 * <p>The file's name is the one {@link RocksDB#loadLibrary(List)} looks for in a directory,
 * {@code Environment.getJniLibraryFileName("rocksdbjni")}: {@code librocksdbjnijni-linux64.so}, "jni"
 * twice (the jar's entry is {@code librocksdbjni-linux64.so}; the build renames it).
 */
final class NativeLibrary {

    static final String DIRECTORY = "kapi.rocksdb.libraryDir";

    private NativeLibrary() {
    }

    static void load() {
        String dir = System.getProperty(DIRECTORY);
        if (dir != null && !dir.isBlank()
                && Files.isRegularFile(Path.of(dir, Environment.getJniLibraryFileName("rocksdbjni")))) {
            try {
                RocksDB.loadLibrary(List.of(dir));
                return;
            } catch (UnsatisfiedLinkError e) {
                // a file of another build or platform: RocksDB's own copy below
            }
        }
        RocksDB.loadLibrary();
    }
}

package io.kapi.storage.rocksdb;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;

/**
 * Loads RocksDB's JNI library, once per JVM. RocksDB's own loader inflates the 15 MB library out of its
 * jar into a file in {@code java.io.tmpdir} at every start, a tenth of a second of a restart, and the
 * file stays there when the JVM does not exit normally (a killed server, a test fork that is stopped).
 * So, in this order:
 * <ol>
 *   <li>a build of Kapi unpacks the library once into a directory that {@code bin/kapi} names in the
 *       system property {@value #DIRECTORY}; it is loaded from there when this platform's file is in it;</li>
 *   <li>otherwise it is copied out of the jar into a fresh directory inside the one the store's directory
 *       is in (the server's own: its data directory, or the temporary directory of an in-process server),
 *       loaded, and deleted at once (a loaded library needs no file);</li>
 *   <li>if that fails too, RocksDB's loader does its usual work.</li>
 * </ol>
 *
 * <p>The file's name is the one {@link RocksDB#loadLibrary(List)} looks for in a directory,
 * {@code Environment.getJniLibraryFileName("rocksdbjni")}: {@code librocksdbjnijni-linux64.so}, "jni"
 * twice (the jar's entry is {@code Environment.getJniLibraryFileName("rocksdb")},
 * {@code librocksdbjni-linux64.so}).
 */
final class NativeLibrary {

    static final String DIRECTORY = "kapi.rocksdb.libraryDir";

    private static boolean loaded;

    private NativeLibrary() {
    }

    /** @param storeDir the store's directory; the library may be copied out beside it for a moment */
    static synchronized void load(Path storeDir) {
        if (loaded) {
            return;
        }
        if (!fromBuild() && !fromCopy(storeDir.toAbsolutePath().getParent())) {
            RocksDB.loadLibrary();
        }
        loaded = true;
    }

    private static boolean fromBuild() {
        String dir = System.getProperty(DIRECTORY);
        return dir != null && !dir.isBlank() && Files.isRegularFile(Path.of(dir, loadedName())) && loadFrom(Path.of(dir));
    }

    private static boolean fromCopy(Path parent) {
        if (parent == null) {
            return false;
        }
        Path dir;
        try {
            Files.createDirectories(parent);
            dir = Files.createTempDirectory(parent, ".rocksdb-native-");
        } catch (IOException e) {
            return false; // a directory the server cannot write: RocksDB's own loader
        }
        try (InputStream library = RocksDB.class.getResourceAsStream("/" + Environment.getJniLibraryFileName("rocksdb"))) {
            if (library == null) {
                return false; // no file for this platform under that name: RocksDB's loader knows the fallbacks
            }
            Files.copy(library, dir.resolve(loadedName()));
            return loadFrom(dir);
        } catch (IOException e) {
            return false;
        } finally {
            delete(dir);
        }
    }

    private static boolean loadFrom(Path dir) {
        try {
            RocksDB.loadLibrary(List.of(dir.toString()));
            return true;
        } catch (UnsatisfiedLinkError e) {
            return false; // a file of another build or platform
        }
    }

    private static String loadedName() {
        return Environment.getJniLibraryFileName("rocksdbjni");
    }

    /** Best effort: a copy left behind (an unwritable directory) is in the server's own directory, not a shared one. */
    private static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // left for whoever removes the server's directory
        }
    }
}

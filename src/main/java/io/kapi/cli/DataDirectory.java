package io.kapi.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Keeps {@code --data-dir} private, as etcd keeps its data directory: the directory and every directory
 * in it {@code 0700}, every file {@code 0600}, for the store holds secrets and the directory holds the CA
 * key. Checked at start, before anything reads it: a wider mode is logged as a warning and narrowed.
 * Files the server creates later are covered by the directory's own mode (and {@code bin/kapi}'s
 * {@code umask 077}).
 */
final class DataDirectory {

    private static final System.Logger LOG = System.getLogger(DataDirectory.class.getName());
    static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");
    static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");

    private DataDirectory() {
    }

    /**
     * Creates {@code dir} (mode 0700) if missing, then narrows whatever in it is wider than 0700/0600.
     *
     * @return the paths whose mode was narrowed
     * @throws UncheckedIOException if the directory cannot be created or its modes read
     */
    static List<Path> secure(Path dir) {
        if (!FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            return List.of();
        }
        try {
            if (Files.notExists(dir)) {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(DIRECTORY));
            }
            try (Stream<Path> all = Files.walk(dir)) {
                return all.filter(p -> !Files.isSymbolicLink(p)).filter(DataDirectory::narrow).toList();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot secure the data directory " + dir + ": " + e.getMessage(), e);
        }
    }

    private static boolean narrow(Path path) {
        try {
            boolean directory = Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS);
            Set<PosixFilePermission> wanted = directory ? DIRECTORY : FILE;
            Set<PosixFilePermission> actual = Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS);
            if (wanted.containsAll(actual)) {
                return false;
            }
            LOG.log(Level.WARNING, "{0} had permissions {1}, wider than {2} for the data directory; narrowed to {2}",
                    path, PosixFilePermissions.toString(actual), PosixFilePermissions.toString(wanted));
            Files.setPosixFilePermissions(path, wanted);
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot check the permissions of " + path + ": " + e.getMessage(), e);
        }
    }
}

package io.kapi.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("the data directory is kept private")
class DataDirectoryTest {

    @TempDir
    Path root;

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    @DisplayName("a missing data directory is created 0700")
    void created() throws Exception {
        Path dir = root.resolve("a/kapi-data");
        assertEquals(List.of(), DataDirectory.secure(dir));
        assertEquals("rwx------", mode(dir));
    }

    @Test
    @DisplayName("a world-readable store left by an older Kapi is narrowed to 0700 directories and 0600 files")
    void narrowed() throws Exception {
        Path dir = Files.createDirectories(root.resolve("kapi-data"));
        Path store = Files.createDirectories(dir.resolve("store"));
        Path sst = Files.writeString(store.resolve("000001.sst"), "secret");
        Path crt = Files.writeString(dir.resolve("ca.crt"), "cert");
        Path already = Files.writeString(dir.resolve("ok"), "x");
        for (Path p : List.of(dir, store)) {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Files.setPosixFilePermissions(sst, PosixFilePermissions.fromString("rw-r--r--"));
        Files.setPosixFilePermissions(crt, PosixFilePermissions.fromString("rw-rw-rw-"));
        Files.setPosixFilePermissions(already, PosixFilePermissions.fromString("r--------"));

        List<Path> narrowed = DataDirectory.secure(dir);

        assertEquals(4, narrowed.size(), narrowed.toString());
        assertTrue(narrowed.containsAll(List.of(dir, store, sst, crt)));
        assertEquals("rwx------", mode(dir));
        assertEquals("rwx------", mode(store));
        assertEquals("rw-------", mode(sst));
        assertEquals("rw-------", mode(crt));
        assertEquals("r--------", mode(already), "narrower modes are left alone");
        assertEquals(List.of(), DataDirectory.secure(dir), "a second start finds nothing to narrow");
    }
}

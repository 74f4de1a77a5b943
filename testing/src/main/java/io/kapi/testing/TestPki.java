package io.kapi.testing;

import io.kapi.server.certs.LocalPki;
import io.kapi.server.certs.ServingNames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The certificates of in-process servers: made once per JVM, by {@link LocalPki} as for bin/kapi, and
 * copied into each server's own directory after that. Making three RSA keys takes longer than the rest
 * of a server's start, and a test server's CA needs no more secrecy than its directory gives it; the
 * copy lives in this JVM's memory only, never in a file outside a server's directory.
 */
final class TestPki {

    /** The serving certificate's names: loopback, the in-cluster names, the first service IP. */
    static final ServingNames NAMES = ServingNames.standard("localhost", "10.96.0.1", List.of());

    /** What LocalPki keeps in its data directory, except the kubeconfig it writes on every start. */
    private static final List<String> FILES =
            List.of("ca.crt", "ca.key", "apiserver.crt", "apiserver.key", "admin.crt", "admin.key");

    private static Map<String, String> template;

    private TestPki() {
    }

    /** The certificates in {@code dir}: this JVM's, written there. */
    static LocalPki in(Path dir) {
        Map<String, String> files = templateFrom(dir);
        if (files != null) {
            files.forEach((name, text) -> write(dir.resolve(name), text));
        }
        return LocalPki.ensure(dir, NAMES);
    }

    /**
     * The files to copy, or null when {@code dir} is the first directory of this JVM (then LocalPki
     * makes them there, and they become the template).
     */
    private static synchronized Map<String, String> templateFrom(Path dir) {
        if (template != null) {
            return template;
        }
        LocalPki.ensure(dir, NAMES);
        Map<String, String> files = new LinkedHashMap<>();
        for (String name : FILES) {
            try {
                files.put(name, Files.readString(dir.resolve(name)));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the certificate file " + name, e);
            }
        }
        template = Map.copyOf(files);
        return null;
    }

    private static void write(Path file, String text) {
        String mode = file.getFileName().toString().endsWith(".key") ? "rw-------" : "rw-r--r--";
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(mode)));
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}

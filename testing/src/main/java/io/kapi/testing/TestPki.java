package io.kapi.testing;

import io.kapi.certs.KeyType;
import io.kapi.certs.LocalPki;
import io.kapi.certs.ServingNames;
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
 * copied into each server's own directory after that. Making keys takes longer than the rest of a
 * warm server's start, and a test server's CA needs no more secrecy than its directory gives it; the
 * copy lives in this JVM's memory only, never in a file outside a server's directory. The admin key
 * is P-256 ({@link KeyType#EC_P256}): an RSA key was half a second of a fresh JVM's CPU, and this
 * JVM's clients read EC keys (Bouncy Castle comes with Kapi).
 */
final class TestPki {

    /** The serving certificate's names: loopback, the in-cluster names, the first service IP. */
    static final ServingNames NAMES = ServingNames.standard("localhost", "10.96.0.1", List.of());

    /** What LocalPki keeps in its data directory, except the kubeconfig it writes on every start. */
    private static final List<String> FILES =
            List.of("ca.crt", "ca.key", "apiserver.crt", "apiserver.key", "admin.crt", "admin.key");

    private static volatile Map<String, String> template;

    private TestPki() {
    }

    /**
     * The certificates in {@code dir}: this JVM's, written there; for the first server of the JVM made
     * there by {@link LocalPki#prepare} (its admin certificate still being issued while the server
     * starts), to be {@linkplain #remember remembered} once that server listens.
     */
    static LocalPki in(Path dir) {
        Map<String, String> files = template;
        if (files == null) {
            return LocalPki.prepare(dir, NAMES, KeyType.EC_P256);
        }
        files.forEach((name, text) -> write(dir.resolve(name), text));
        return LocalPki.ensure(dir, NAMES, KeyType.EC_P256);
    }

    /**
     * Keeps {@code pki}'s files as the ones later servers copy, unless another server's were kept
     * first; waits for its admin certificate.
     */
    static void remember(LocalPki pki) {
        pki.adminCertificate();
        synchronized (TestPki.class) {
            if (template != null) {
                return;
            }
            Map<String, String> files = new LinkedHashMap<>();
            for (String name : FILES) {
                try {
                    files.put(name, Files.readString(pki.dataDir().resolve(name)));
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read the certificate file " + name, e);
                }
            }
            template = Map.copyOf(files);
        }
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

package io.kapi.assembly;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The cluster CA bundle published to namespaces as {@code kube-root-ca.crt}. */
final class ClusterCa {

    private ClusterCa() {
    }

    /** The PEM of {@code ca.crt} in the data directory, or null when Kapi did not make its own CA. */
    static String read(Path dataDir) {
        Path ca = dataDir.resolve("ca.crt");
        try {
            return Files.isRegularFile(ca) ? Files.readString(ca) : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.kapi.storage.etcd;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.certs.LocalPki;
import io.kapi.certs.ServingNames;
import io.kapi.storage.Storage;
import io.kapi.storage.StorageException;
import io.kapi.storage.StorageOptions;
import io.kapi.storage.backends.Storages;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code --etcd-cafile}/{@code --etcd-certfile}/{@code --etcd-keyfile} against an etcd that serves
 * TLS and requires client certificates signed by its CA (the set-up of a production cluster).
 */
final class EtcdTlsTest {

    private static final Path PKI = pki();

    @RegisterExtension
    static final EtcdCluster ETCD = EtcdCluster.tls(PKI.resolve("ca.crt"), PKI.resolve("apiserver.crt"),
            PKI.resolve("apiserver.key"));

    private static Path pki() {
        try {
            Path dir = Files.createTempDirectory("kapi-etcd-tls-");
            LocalPki.ensure(dir, ServingNames.standard("localhost", "10.96.0.1", List.of("127.0.0.1")));
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterAll
    static void removePki() {
        EtcdCluster.deleteTree(PKI);
    }

    /** Polls the health check: its first round trip includes the TLS handshake and the channel's start. */
    private static boolean healthyWithin(Storage storage, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            if (storage.healthy()) {
                return true;
            }
        }
        return false;
    }

    @Test
    @DisplayName("with the CA and a client certificate Kapi reads and writes; without a client certificate etcd refuses it")
    void mutualTls() {
        EtcdConfig config = EtcdConfig.of(ETCD.endpoints()).withCompactionInterval(Duration.ZERO)
                .withTls(PKI.resolve("ca.crt"), PKI.resolve("admin.crt"), PKI.resolve("admin.key"));
        try (Storage storage = Storages.etcd(config, StorageOptions.DEFAULT)) {
            assertTrue(healthyWithin(storage, Duration.ofSeconds(30)), "the first TLS connection may be slow on a busy machine");
            storage.create("/registry/configmaps/default/tls", "v".getBytes(UTF_8));
            assertEquals("v", new String(storage.get("/registry/configmaps/default/tls").orElseThrow().value(), UTF_8));
        }
        EtcdConfig anonymous = EtcdConfig.of(ETCD.endpoints()).withCompactionInterval(Duration.ZERO)
                .withTls(PKI.resolve("ca.crt"), null, null).withRequestTimeout(Duration.ofSeconds(3));
        try (Storage storage = Storages.etcd(anonymous, StorageOptions.DEFAULT)) {
            assertFalse(storage.healthy());
            assertThrows(StorageException.Unavailable.class, () -> storage.get("/registry/configmaps/default/tls"));
        }
    }
}

package io.kapi.encryption;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.metrics.Metrics;
import io.kapi.storage.ValueTransformer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** KMS v2 against a real plugin: {@link TestKmsPlugin}, a gRPC server on a unix socket. */
@DisplayName("KMS v2 provider")
final class KmsV2Test {

    private static final String KEY = "/registry/secrets/default/s1";
    private static final byte[] PLAIN = "{\"kind\":\"Secret\"}".getBytes(StandardCharsets.UTF_8);
    private static final String PREFIX = "k8s:enc:kms:v2:kms1:";

    @TempDir
    Path dir;
    private TestKmsPlugin plugin;

    @BeforeEach
    void startPlugin() throws IOException {
        plugin = new TestKmsPlugin(dir);
    }

    @AfterEach
    void stopPlugin() throws InterruptedException {
        plugin.close();
    }

    private String config() {
        return Configs.config("secrets", "- kms:\n    apiVersion: v2\n    name: kms1\n    endpoint: " + plugin.endpoint()
                + "\n    timeout: 2s");
    }

    @Test
    @DisplayName("values are k8s:enc:kms:v2:<name>: + EncryptedObject; the data opens with HKDF-SHA256(seed, info) and AES-GCM (Python)")
    void format() throws Exception {
        try (EncryptionAtRest at = Configs.open(dir, config())) {
            byte[] stored = at.transformer("", "secrets").toStorage(PLAIN, KEY);
            assertEquals(PREFIX, new String(stored, 0, PREFIX.length(), StandardCharsets.US_ASCII));
            var object = KmsMessages.encryptedObject(Arrays.copyOfRange(stored, PREFIX.length(), stored.length));
            assertEquals("key-1", object.keyId());
            assertEquals(KmsMessages.HKDF_SHA256_XNONCE_AES_GCM_SEED, object.dekSourceType());
            assertArrayEquals("key-1".getBytes(), object.annotations().get("kms.example.com/v"));
            byte[] seed;
            try (KmsClient client = new KmsClient("kms1", plugin.endpoint(), Duration.ofSeconds(2),
                    Metrics.defaults().encryption())) {
                seed = client.decrypt(object.encryptedDekSource(), object.keyId(), object.annotations());
            }
            assertEquals(32, seed.length);
            assertArrayEquals(PLAIN, python(seed, object.encryptedData()));
            assertArrayEquals(PLAIN, at.transformer("", "secrets").fromStorage(stored, KEY));
        }
    }

    @Test
    @DisplayName("one seed serves many writes: the plugin encrypts once; a restarted server decrypts each seed once")
    void seedCached() throws Exception {
        byte[][] stored = new byte[20][];
        try (EncryptionAtRest at = Configs.open(dir, config())) {
            for (int i = 0; i < stored.length; i++) {
                stored[i] = at.transformer("", "secrets").toStorage(PLAIN, KEY + i);
            }
        }
        assertEquals(1, plugin.encrypts.get());
        try (EncryptionAtRest restarted = Configs.open(dir, config())) {
            for (int i = 0; i < stored.length; i++) {
                assertArrayEquals(PLAIN, restarted.transformer("", "secrets").fromStorage(stored[i], KEY + i));
            }
        }
        assertEquals(1, plugin.decrypts.get());
    }

    @Test
    @DisplayName("a new key ID from Status makes a new seed; values under the old key ID read as stale and still open")
    void rotation() throws Exception {
        try (EncryptionAtRest at = Configs.open(dir, config())) {
            ValueTransformer t = at.transformer("", "secrets");
            byte[] old = t.toStorage(PLAIN, KEY);
            assertFalse(t.stale(old, KEY));
            plugin.keyId = "key-2";
            kms(at).refresh(); // as the Status poll does (the health checks keep a result for a minute)
            byte[] fresh = t.toStorage(PLAIN, KEY);
            assertEquals("key-2", KmsMessages.encryptedObject(Arrays.copyOfRange(fresh, PREFIX.length(), fresh.length)).keyId());
            assertTrue(t.stale(old, KEY));
            assertFalse(t.stale(fresh, KEY));
            assertArrayEquals(PLAIN, t.fromStorage(old, KEY));
            assertEquals(2, plugin.encrypts.get());
        }
    }

    @Test
    @DisplayName("health: kms-provider-0 per provider, kms-providers under reload; an unhealthy plugin fails it with its status")
    void health() throws Exception {
        try (EncryptionAtRest at = Configs.open(dir, config())) {
            assertEquals(List.of("kms-provider-0"), at.checks().stream().map(EncryptionAtRest.Check::name).toList());
            at.checks().getFirst().check();
        }
        plugin.healthz = "broken";
        try (EncryptionAtRest at = EncryptionAtRest.open(new EncryptionOptions(Configs.write(dir, config()), true),
                Metrics.defaults().encryption(), "apiserver-test")) {
            assertEquals(List.of("kms-providers"), at.checks().stream().map(EncryptionAtRest.Check::name).toList());
            var failure = assertThrows(IllegalStateException.class, () -> at.checks().getFirst().check());
            assertTrue(failure.getMessage().contains("got unexpected healthz status: broken"), failure.getMessage());
        }
    }

    @Test
    @DisplayName("without the plugin, a value whose seed is not cached does not open: kube's 'failed to decrypt DEK'")
    void pluginGone() throws Exception {
        byte[] stored;
        try (EncryptionAtRest at = Configs.open(dir, config())) {
            stored = at.transformer("", "secrets").toStorage(PLAIN, KEY);
        }
        plugin.close();
        try (EncryptionAtRest at = Configs.open(dir, config())) {
            var failure = assertThrows(KmsException.class, () -> at.transformer("", "secrets").fromStorage(stored, KEY));
            assertTrue(failure.getMessage().startsWith("failed to decrypt DEK, error: rpc error: code = Unavailable"),
                    failure.getMessage());
        }
    }

    private static KmsV2 kms(EncryptionAtRest at) throws ReflectiveOperationException {
        var field = EncryptionAtRest.class.getDeclaredField("current");
        field.setAccessible(true);
        return ((java.util.concurrent.atomic.AtomicReference<Providers>) field.get(at)).get().kms().getFirst();
    }

    /** HKDF-SHA256-Expand(seed, info=data[:32]) as the AES-256-GCM key, nonce data[32:44], the storage key authenticated. */
    private byte[] python(byte[] seed, byte[] data) throws IOException, InterruptedException {
        Path file = dir.resolve("kdf.py");
        Files.writeString(file, """
                import sys, base64
                from cryptography.hazmat.primitives import hashes
                from cryptography.hazmat.primitives.kdf.hkdf import HKDFExpand
                from cryptography.hazmat.primitives.ciphers.aead import AESGCM
                seed = base64.b64decode(sys.argv[1]); data = sys.stdin.buffer.read()
                key = HKDFExpand(algorithm=hashes.SHA256(), length=32, info=data[:32]).derive(seed)
                sys.stdout.buffer.write(AESGCM(key).decrypt(data[32:44], data[44:], sys.argv[2].encode()))
                """);
        Process p = new ProcessBuilder(Python.command(), file.toString(), Base64.getEncoder().encodeToString(seed), KEY)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (var in = p.getOutputStream()) {
            in.write(data);
        }
        byte[] out = p.getInputStream().readAllBytes();
        assertEquals(0, p.waitFor());
        return out;
    }
}

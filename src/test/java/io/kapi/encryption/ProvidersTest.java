package io.kapi.encryption;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.storage.ValueTransformer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The providers' values have kube's format: checked against values made independently of Kapi's code
 * (the {@code openssl} command for AES-CBC, Python's {@code cryptography} for AES-GCM), both ways.
 */
@DisplayName("encryption providers")
final class ProvidersTest {

    private static final String KEY = "/registry/secrets/default/s1";
    private static final byte[] PLAIN = "{\"kind\":\"Secret\",\"data\":{\"a\":\"Yg==\"}}".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    @Test
    @DisplayName("aescbc writes k8s:enc:aescbc:v1:<name>: + IV + AES-CBC/PKCS#7, which openssl decrypts")
    void aescbcOpenssl() throws Exception {
        try (EncryptionAtRest at = Configs.open(dir, Configs.config("secrets",
                "- aescbc:\n    keys:\n      - name: key1\n        secret: " + Configs.KEY1))) {
            byte[] stored = at.transformer("", "secrets").toStorage(PLAIN, KEY);
            byte[] prefix = "k8s:enc:aescbc:v1:key1:".getBytes(StandardCharsets.US_ASCII);
            assertArrayEquals(prefix, Arrays.copyOf(stored, prefix.length));
            byte[] iv = Arrays.copyOfRange(stored, prefix.length, prefix.length + 16);
            byte[] body = Arrays.copyOfRange(stored, prefix.length + 16, stored.length);
            assertArrayEquals(PLAIN, openssl(body, "-d", iv));
            assertArrayEquals(PLAIN, at.transformer("", "secrets").fromStorage(stored, KEY));
        }
    }

    @Test
    @DisplayName("aescbc reads a value openssl encrypted under kube's prefix")
    void aescbcReadsOpenssl() throws Exception {
        try (EncryptionAtRest at = Configs.open(dir, Configs.config("secrets",
                "- aescbc:\n    keys:\n      - name: key1\n        secret: " + Configs.KEY1))) {
            byte[] iv = HexFormat.of().parseHex("000102030405060708090a0b0c0d0e0f");
            byte[] body = openssl(PLAIN, "-e", iv);
            byte[] stored = concat("k8s:enc:aescbc:v1:key1:".getBytes(StandardCharsets.US_ASCII), iv, body);
            assertArrayEquals(PLAIN, at.transformer("", "secrets").fromStorage(stored, KEY));
        }
    }

    @Test
    @DisplayName("aesgcm: nonce + ciphertext + tag with the storage key as authenticated data, both ways with Python's AESGCM")
    void aesgcmPython() throws Exception {
        try (EncryptionAtRest at = Configs.open(dir, Configs.config("secrets",
                "- aesgcm:\n    keys:\n      - name: k\n        secret: " + Configs.KEY1))) {
            ValueTransformer t = at.transformer("", "secrets");
            byte[] prefix = "k8s:enc:aesgcm:v1:k:".getBytes(StandardCharsets.US_ASCII);
            byte[] stored = t.toStorage(PLAIN, KEY);
            assertArrayEquals(prefix, Arrays.copyOf(stored, prefix.length));
            byte[] body = Arrays.copyOfRange(stored, prefix.length, stored.length);
            assertEquals(12 + PLAIN.length + 16, body.length);
            assertArrayEquals(PLAIN, python("d", body));
            byte[] fromPython = concat(prefix, python("e", PLAIN));
            assertArrayEquals(PLAIN, t.fromStorage(fromPython, KEY));
            IllegalStateException moved = assertThrows(IllegalStateException.class,
                    () -> t.fromStorage(stored, "/registry/secrets/default/other"));
            assertEquals("cipher: message authentication failed", moved.getMessage());
        }
    }

    @Test
    @DisplayName("secretbox: nonce(24) + tag(16) + ciphertext; a changed byte does not open")
    void secretbox() throws Exception {
        try (EncryptionAtRest at = Configs.open(dir, Configs.config("secrets",
                "- secretbox:\n    keys:\n      - name: sb\n        secret: " + Configs.KEY1))) {
            ValueTransformer t = at.transformer("", "secrets");
            byte[] stored = t.toStorage(PLAIN, KEY);
            int prefix = "k8s:enc:secretbox:v1:sb:".length();
            assertEquals(prefix + 24 + 16 + PLAIN.length, stored.length);
            assertArrayEquals(PLAIN, t.fromStorage(stored, KEY));
            stored[stored.length - 1] ^= 1;
            assertThrows(IllegalStateException.class, () -> t.fromStorage(stored, KEY));
        }
    }

    @Test
    @DisplayName("the first provider writes, every provider reads; values of a later provider or key are stale")
    void firstWritesAllRead() throws Exception {
        String key2 = "- aescbc:\n    keys:\n      - name: key2\n        secret: " + Configs.KEY2
                + "\n      - name: key1\n        secret: " + Configs.KEY1 + "\n- identity: {}";
        byte[] old;
        try (EncryptionAtRest at = Configs.open(dir, Configs.config("secrets",
                "- aescbc:\n    keys:\n      - name: key1\n        secret: " + Configs.KEY1))) {
            old = at.transformer("", "secrets").toStorage(PLAIN, KEY);
        }
        try (EncryptionAtRest at = Configs.open(dir, Configs.config("secrets", key2))) {
            ValueTransformer t = at.transformer("", "secrets");
            assertArrayEquals(PLAIN, t.fromStorage(old, KEY));
            assertTrue(t.stale(old, KEY), "written with key1, key2 writes now");
            assertTrue(t.stale(PLAIN, KEY), "plain, identity is last");
            assertArrayEquals(PLAIN, t.fromStorage(PLAIN, KEY));
            byte[] fresh = t.toStorage(PLAIN, KEY);
            assertTrue(new String(fresh, StandardCharsets.US_ASCII).startsWith("k8s:enc:aescbc:v1:key2:"));
            assertFalse(t.stale(fresh, KEY));
        }
    }

    @Test
    @DisplayName("identity first reads encrypted values through the later providers; an unknown key is kube's error")
    void identityFirst() throws Exception {
        byte[] encrypted;
        try (EncryptionAtRest at = Configs.open(dir, Configs.config("secrets",
                "- aesgcm:\n    keys:\n      - name: k\n        secret: " + Configs.KEY1))) {
            encrypted = at.transformer("", "secrets").toStorage(PLAIN, KEY);
        }
        try (EncryptionAtRest at = Configs.open(dir, Configs.config("secrets",
                "- identity: {}\n- aesgcm:\n    keys:\n      - name: k\n        secret: " + Configs.KEY1))) {
            assertArrayEquals(PLAIN, at.transformer("", "secrets").fromStorage(encrypted, KEY));
            assertArrayEquals(PLAIN, at.transformer("", "secrets").toStorage(PLAIN, KEY));
        }
        try (EncryptionAtRest at = Configs.open(dir, Configs.config("secrets", "- identity: {}"))) {
            assertEquals("identity transformer tried to read encrypted data", assertThrows(IllegalStateException.class,
                    () -> at.transformer("", "secrets").fromStorage(encrypted, KEY)).getMessage());
        }
        try (EncryptionAtRest at = Configs.open(dir, Configs.config("secrets",
                "- aescbc:\n    keys:\n      - name: other\n        secret: " + Configs.KEY1))) {
            assertEquals("no matching prefix found", assertThrows(IllegalStateException.class,
                    () -> at.transformer("", "secrets").fromStorage(encrypted, KEY)).getMessage());
        }
    }

    @Test
    @DisplayName("resources by name, custom resources, *.group and *.*: the resource's own rule first, then its group's, then all")
    void resourceMatching() throws Exception {
        String yaml = """
                apiVersion: apiserver.config.k8s.io/v1
                kind: EncryptionConfiguration
                resources:
                  - resources: [secrets, widgets.example.com]
                    providers: [{aescbc: {keys: [{name: a, secret: %s}]}}]
                  - resources: ['*.apps']
                    providers: [{aesgcm: {keys: [{name: g, secret: %s}]}}]
                  - resources: ['*.*']
                    providers: [{secretbox: {keys: [{name: s, secret: %s}]}}]
                """.formatted(Configs.KEY1, Configs.KEY1, Configs.KEY1);
        try (EncryptionAtRest at = Configs.open(dir, yaml)) {
            assertEquals("k8s:enc:aescbc:v1:a:", prefix(at, "", "secrets"));
            assertEquals("k8s:enc:aescbc:v1:a:", prefix(at, "example.com", "widgets"));
            assertEquals("k8s:enc:aesgcm:v1:g:", prefix(at, "apps", "deployments"));
            assertEquals("k8s:enc:secretbox:v1:s:", prefix(at, "", "configmaps"));
            assertEquals("k8s:enc:secretbox:v1:s:", prefix(at, "example.com", "gadgets"));
        }
        try (EncryptionAtRest at = Configs.open(dir, Configs.config("secrets", "- identity: {}"))) {
            assertArrayEquals(PLAIN, at.transformer("", "configmaps").toStorage(PLAIN, KEY));
        }
    }

    private static String prefix(EncryptionAtRest at, String group, String resource) {
        String stored = new String(at.transformer(group, resource).toStorage(PLAIN, KEY), StandardCharsets.ISO_8859_1);
        int end = -1;
        for (int colons = 0; colons < 5; colons++) {
            end = stored.indexOf(':', end + 1);
        }
        return stored.substring(0, end + 1);
    }

    private byte[] openssl(byte[] input, String direction, byte[] iv) throws IOException, InterruptedException {
        String key = HexFormat.of().formatHex(Base64.getDecoder().decode(Configs.KEY1));
        return run(input, List.of("openssl", "enc", direction, "-aes-256-cbc", "-K", key, "-iv", HexFormat.of().formatHex(iv)));
    }

    /** Python's AESGCM with kube's layout: "e" seals with a fresh nonce, "d" opens nonce + ciphertext. */
    private byte[] python(String mode, byte[] input) throws IOException, InterruptedException {
        String script = """
                import sys, os, base64
                from cryptography.hazmat.primitives.ciphers.aead import AESGCM
                key = base64.b64decode(sys.argv[2]); aad = sys.argv[3].encode(); data = sys.stdin.buffer.read()
                g = AESGCM(key)
                if sys.argv[1] == 'e':
                    n = os.urandom(12); sys.stdout.buffer.write(n + g.encrypt(n, data, aad))
                else:
                    sys.stdout.buffer.write(g.decrypt(data[:12], data[12:], aad))
                """;
        Path file = dir.resolve("gcm.py");
        Files.writeString(file, script);
        return run(input, List.of(Python.command(), file.toString(), mode, Configs.KEY1, KEY));
    }

    private static byte[] run(byte[] input, List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (var in = p.getOutputStream()) {
            in.write(input);
        }
        byte[] out = p.getInputStream().readAllBytes();
        assertEquals(0, p.waitFor(), String.join(" ", command));
        return out;
    }

    private static byte[] concat(byte[]... parts) {
        byte[] out = new byte[0];
        for (byte[] part : parts) {
            int at = out.length;
            out = Arrays.copyOf(out, at + part.length);
            System.arraycopy(part, 0, out, at, part.length);
        }
        return out;
    }
}

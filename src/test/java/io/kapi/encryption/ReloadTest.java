package io.kapi.encryption;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.metrics.Metrics;
import io.kapi.storage.ValueTransformer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("automatic reload of the encryption configuration")
final class ReloadTest {

    private static final String KEY = "/registry/secrets/default/s1";
    private static final byte[] PLAIN = "{}".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    @Test
    @DisplayName("a changed file is swapped in (the transformers already handed out follow it); an invalid one keeps the running configuration and counts a failure")
    void reload() throws Exception {
        Path file = Configs.write(dir, Configs.config("secrets", "- aescbc:\n    keys:\n      - name: key1\n        secret: "
                + Configs.KEY1));
        Metrics metrics = Metrics.defaults();
        try (EncryptionAtRest at = EncryptionAtRest.open(new EncryptionOptions(file, true), metrics.encryption(), "apiserver-x")) {
            ValueTransformer t = at.transformer("", "secrets");
            byte[] old = t.toStorage(PLAIN, KEY);

            Files.writeString(file, Configs.config("secrets", "- aescbc:\n    keys:\n      - name: k\n        secret: MTIz"));
            at.reloadIfChanged();
            assertTrue(new String(t.toStorage(PLAIN, KEY), StandardCharsets.US_ASCII).startsWith("k8s:enc:aescbc:v1:key1:"));

            Files.writeString(file, Configs.config("secrets", "- aesgcm:\n    keys:\n      - name: g\n        secret: "
                    + Configs.KEY2 + "\n- aescbc:\n    keys:\n      - name: key1\n        secret: " + Configs.KEY1));
            at.reloadIfChanged();
            assertTrue(new String(t.toStorage(PLAIN, KEY), StandardCharsets.US_ASCII).startsWith("k8s:enc:aesgcm:v1:g:"));
            assertArrayEquals(PLAIN, t.fromStorage(old, KEY));
            assertTrue(t.stale(old, KEY));

            String scrape = scrape(metrics);
            assertTrue(scrape.contains("apiserver_encryption_config_controller_automatic_reloads_total{apiserver_id_hash=\"sha256:"), scrape);
            assertTrue(scrape.lines().anyMatch(l -> l.contains("automatic_reloads_total") && l.contains("status=\"failure\"")
                    && l.endsWith(" 1.0")), scrape);
            assertTrue(scrape.lines().anyMatch(l -> l.startsWith("apiserver_storage_transformation_operations_total")
                    && l.contains("transformer_prefix=\"k8s:enc:aesgcm:v1:g:\"") && l.contains("transformation_type=\"to_storage\"")
                    && l.contains("status=\"OK\"") && l.contains("resource=\"secrets\"")), scrape);
        }
    }

    private static String scrape(Metrics metrics) throws java.io.IOException {
        var out = new java.io.ByteArrayOutputStream();
        io.prometheus.metrics.expositionformats.ExpositionFormats.init().getPrometheusTextFormatWriter().write(out, metrics.scrape());
        return out.toString(StandardCharsets.UTF_8);
    }
}

package io.kapi.encryption;

import io.kapi.metrics.Metrics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Test helpers: a configuration file written to a directory, opened as the server opens it. */
final class Configs {

    /** kube's documented keys: 32 random bytes, base64. */
    static final String KEY1 = "c2VjcmV0IGlzIHNlY3VyZSwgb3IgaXMgaXQ/IDEyMzQ=";
    static final String KEY2 = "dGhpcyBpcyBwYXNzd29yZCBpcyBzZWN1cmUgYXMgdyE=";

    private Configs() {
    }

    static Path write(Path dir, String yaml) throws IOException {
        Path file = dir.resolve("encryption.yaml");
        Files.writeString(file, yaml);
        return file;
    }

    static EncryptionAtRest open(Path dir, String yaml) throws IOException {
        return EncryptionAtRest.open(new EncryptionOptions(write(dir, yaml), false), Metrics.defaults().encryption(),
                "apiserver-test");
    }

    static String config(String resources, String providers) {
        return """
                apiVersion: apiserver.config.k8s.io/v1
                kind: EncryptionConfiguration
                resources:
                  - resources: [%s]
                    providers:
                %s""".formatted(resources, providers.indent(6));
    }
}

package io.kapi.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The YAML manifests of the end-to-end tests, under {@code src/test/resources/e2e/}. */
public final class Manifests {

    private Manifests() {
    }

    /** A Namespace manifest (for set-up through {@code create -f}, whose body is JSON, not protobuf). */
    public static String namespace(String name) {
        return "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + name + "\n";
    }

    /** A ConfigMap manifest with one key; the value is quoted, so it stays a string. */
    public static String configMap(String name, String key, String value) {
        return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\ndata:\n  " + key + ": \"" + value + "\"\n";
    }

    /** The text of {@code e2e/NAME}; fails if there is no such resource. */
    public static String read(String name) {
        try (InputStream in = Manifests.class.getResourceAsStream("/e2e/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource e2e/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

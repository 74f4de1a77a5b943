package io.kapi.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The YAML manifests of the end-to-end tests, under {@code src/test/resources/e2e/}. */
public final class Manifests {

    private Manifests() {
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

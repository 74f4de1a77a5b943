package io.kapi.testing;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Installs the CustomResourceDefinitions a {@link KapiServer.Builder#crds} names, as {@code kubectl create -f}
 * does: every YAML (or JSON) document of every location is created as it is written, then each is awaited
 * until the server says it is {@code Established} (its API served). What the server refuses fails with
 * the server's own message.
 */
final class CrdInstaller {

    private static final String CLASSPATH = "classpath:";
    private static final String FILE = "file:";
    private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    private static final Duration POLL = Duration.ofMillis(10);

    /** One document of a location. */
    record Manifest(String location, int document, String text) {
        String describe() {
            return location + (document > 1 ? " (document " + document + ")" : "");
        }
    }

    private CrdInstaller() {
    }

    /**
     * The documents of {@code locations}, read now: a location that cannot be read fails here, before
     * any server starts.
     *
     * @throws IllegalArgumentException for a missing file or class-path resource, or one without a document
     */
    static List<Manifest> read(List<String> locations) {
        List<Manifest> manifests = new ArrayList<>();
        for (String location : locations) {
            List<String> documents = documents(text(location));
            if (documents.isEmpty()) {
                throw new IllegalArgumentException("CRD location " + location + " holds no document");
            }
            for (int i = 0; i < documents.size(); i++) {
                manifests.add(new Manifest(location, i + 1, documents.get(i)));
            }
        }
        return manifests;
    }

    /**
     * Creates every manifest's CRD on {@code server}, then waits (within {@code timeout} in all) until each
     * is {@code Established}.
     *
     * @throws IllegalStateException when the server refuses one (its status message), when its names are
     *         not accepted, or when one is not established in time
     */
    static void install(AdminCalls admin, List<Manifest> manifests, Duration timeout) {
        List<String> names = new ArrayList<>();
        for (Manifest manifest : manifests) {
            AdminCalls.Answer created = admin.post(CRDS, "application/yaml", manifest.text());
            JsonNode body = json(created.body());
            if (created.status() != 201) {
                throw new IllegalStateException("cannot install the CRD of " + manifest.describe() + ": "
                        + body.path("message").asText(created.status() + " " + created.body()));
            }
            names.add(body.path("metadata").path("name").asText());
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        for (String name : names) {
            awaitEstablished(admin, name, deadline, timeout);
        }
    }

    private static void awaitEstablished(AdminCalls admin, String name, long deadline, Duration timeout) {
        while (true) {
            AdminCalls.Answer got = admin.get(CRDS + "/" + name);
            JsonNode crd = json(got.body());
            if (got.status() != 200) {
                throw new IllegalStateException("cannot read CRD " + name + ": " + crd.path("message").asText(got.body()));
            }
            for (JsonNode condition : crd.path("status").path("conditions")) {
                String type = condition.path("type").asText();
                String status = condition.path("status").asText();
                if (type.equals("Established") && status.equals("True")) {
                    return;
                }
                if (type.equals("NamesAccepted") && status.equals("False")) {
                    throw new IllegalStateException("CRD " + name + " is not served: its names are not accepted: "
                            + condition.path("message").asText());
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("CRD " + name + " was not established within " + timeout + " on "
                        + admin.where());
            }
            try {
                Thread.sleep(POLL);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for CRD " + name, e);
            }
        }
    }

    private static JsonNode json(String body) {
        try {
            return body == null || body.isBlank() ? Json.object() : Json.MAPPER.readTree(body);
        } catch (IOException e) {
            return Json.object();
        }
    }

    /** The content of a {@code classpath:} resource, or of a file ({@code file:} or a plain path). */
    private static String text(String location) {
        if (location.startsWith(CLASSPATH)) {
            String resource = location.substring(CLASSPATH.length()).replaceFirst("^/+", "");
            try (InputStream in = resource(resource)) {
                if (in == null) {
                    throw new IllegalArgumentException("no class-path resource " + resource + " (CRD location " + location + ")");
                }
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read CRD location " + location, e);
            }
        }
        Path file = Path.of(location.startsWith(FILE) ? location.substring(FILE.length()) : location);
        try {
            return Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("no file " + file.toAbsolutePath() + " (CRD location " + location + ")", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read CRD location " + location, e);
        }
    }

    /** A class-path resource as the test's class loader finds it, else as the library's does. */
    private static InputStream resource(String name) {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        InputStream in = context == null ? null : context.getResourceAsStream(name);
        return in != null ? in : CrdInstaller.class.getClassLoader().getResourceAsStream(name);
    }

    /**
     * The documents of a YAML stream, split as kubectl splits them: at lines that are {@code ---} (trailing
     * blanks allowed); documents of nothing but blanks and comments are left out. A JSON file is one document.
     */
    static List<String> documents(String text) {
        List<String> documents = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : text.split("\r?\n", -1)) {
            if (line.stripTrailing().equals("---")) {
                add(documents, current);
                current.setLength(0);
            } else {
                current.append(line).append('\n');
            }
        }
        add(documents, current);
        return documents;
    }

    private static void add(List<String> documents, StringBuilder document) {
        for (String line : document.toString().split("\n")) {
            String content = line.strip();
            if (!content.isEmpty() && !content.startsWith("#")) {
                documents.add(document.toString());
                return;
            }
        }
    }
}

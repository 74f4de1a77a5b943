package io.kapi.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code --admission-control-config-file} (kind {@code AdmissionConfiguration}, YAML or JSON): each
 * plugin's configuration, given inline ({@code configuration}) or in a file ({@code path}, relative to
 * the configuration file's directory).
 */
public final class AdmissionConfiguration {

    /** No file: every plugin runs with its defaults. */
    public static final AdmissionConfiguration NONE = new AdmissionConfiguration(Map.of());

    private static final Set<String> VERSIONS = Set.of("apiserver.config.k8s.io/v1", "apiserver.config.k8s.io/v1alpha1",
            "apiserver.k8s.io/v1alpha1");

    private final Map<String, JsonNode> plugins;

    private AdmissionConfiguration(Map<String, JsonNode> plugins) {
        this.plugins = Map.copyOf(plugins);
    }

    /**
     * Reads the file.
     *
     * @throws IllegalArgumentException when it cannot be read or is not an AdmissionConfiguration, worded as
     *         kube-apiserver's start-up error
     */
    public static AdmissionConfiguration read(Path file) {
        JsonNode root = parse(file);
        String apiVersion = root.path("apiVersion").asText("");
        if (!root.path("kind").asText("").equals("AdmissionConfiguration") || !VERSIONS.contains(apiVersion)) {
            throw new IllegalArgumentException("unable to read admission control configuration from \"" + file
                    + "\": no kind \"AdmissionConfiguration\" is registered for version \"" + apiVersion + "\"");
        }
        Map<String, JsonNode> plugins = new LinkedHashMap<>();
        for (JsonNode plugin : root.path("plugins")) {
            String name = plugin.path("name").asText("");
            if (plugin.hasNonNull("configuration")) {
                plugins.put(name, plugin.get("configuration"));
            } else if (plugin.hasNonNull("path")) {
                Path path = Path.of(plugin.get("path").asText());
                Path dir = file.toAbsolutePath().getParent();
                plugins.put(name, parse(path.isAbsolute() || dir == null ? path : dir.resolve(path)));
            }
        }
        return new AdmissionConfiguration(plugins);
    }

    private static JsonNode parse(Path file) {
        try {
            JsonNode node = Json.yaml().readTree(Files.readString(file));
            if (node == null || !node.isObject()) {
                throw new IllegalArgumentException("unable to read admission control configuration from \"" + file
                        + "\": not a YAML or JSON object");
            }
            return node;
        } catch (IOException e) {
            throw new IllegalArgumentException("unable to read admission control configuration from \"" + file
                    + "\": " + e.getMessage(), e);
        }
    }

    /** The configuration of {@code plugin}, if the file gives one. */
    public Optional<JsonNode> of(String plugin) {
        return Optional.ofNullable(plugins.get(plugin));
    }
}

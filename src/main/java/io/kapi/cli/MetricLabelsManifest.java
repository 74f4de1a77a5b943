package io.kapi.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.metrics.MetricsOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads {@code --allow-metric-labels-manifest}: a YAML map from {@code metric,label} to the allowed values
 * ({@code "v1,v2"}), the same entries as {@code --allow-metric-labels}.
 */
final class MetricLabelsManifest {

    private MetricLabelsManifest() {
    }

    static Map<String, Set<String>> read(Path file) {
        JsonNode root;
        try {
            root = io.kapi.machinery.Json.yaml().readTree(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException("failed to read allow list manifest: " + e.getMessage(), e);
        }
        if (root == null || root.isNull() || root.isMissingNode()) {
            return Map.of();
        }
        if (!root.isObject()) {
            throw new IllegalArgumentException("failed to parse allow list manifest: expected a map of "
                    + "<MetricName>,<LabelName> to <allowed_value>,<allowed_value>...");
        }
        List<String> entries = new ArrayList<>();
        root.properties().forEach(e -> entries.add(e.getKey() + "='" + e.getValue().asText() + "'"));
        return MetricsOptions.parseAllowList(entries);
    }
}

package io.kapi.tracing;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code --tracing-config-file}: kind {@code TracingConfiguration} of {@code apiserver.config.k8s.io}
 * (v1, v1beta1, v1alpha1), YAML or JSON, with kube's defaults: spans go to {@code localhost:4317} over
 * OTLP/gRPC, and with no {@code samplingRatePerMillion} only requests whose caller sampled them are
 * traced (kube's "respects its parent span's sampling rate, but otherwise never samples").
 *
 * @param endpoint the collector, {@code host:port} or a gRPC target URI ({@code dns://}, {@code unix://})
 * @param samplingRatePerMillion spans sampled per million root spans, 0 to 1,000,000
 */
public record TracingConfiguration(String endpoint, int samplingRatePerMillion) {

    static final String DEFAULT_ENDPOINT = "localhost:4317";
    private static final int MAX_SAMPLING_RATE = 1_000_000;
    private static final Set<String> VERSIONS = Set.of("apiserver.config.k8s.io/v1",
            "apiserver.config.k8s.io/v1beta1", "apiserver.config.k8s.io/v1alpha1");

    /**
     * Reads and validates the file.
     *
     * @throws IllegalArgumentException with kube-apiserver's words when it cannot be read or is invalid
     */
    public static TracingConfiguration read(Path file) {
        JsonNode root;
        try {
            root = Json.yaml().readTree(Files.readString(file));
        } catch (IOException e) {
            throw new IllegalArgumentException("failed to read tracing config: unable to read tracing configuration from \""
                    + file + "\": " + e.getMessage());
        }
        String apiVersion = root == null ? "" : root.path("apiVersion").asText("");
        if (root == null || !root.path("kind").asText("").equals("TracingConfiguration") || !VERSIONS.contains(apiVersion)) {
            throw new IllegalArgumentException("failed to read tracing config: unable to decode tracing configuration data: "
                    + "no kind \"" + (root == null ? "" : root.path("kind").asText("")) + "\" is registered for version \""
                    + apiVersion + "\"");
        }
        String endpoint = root.hasNonNull("endpoint") ? root.get("endpoint").asText() : null;
        long rate = root.hasNonNull("samplingRatePerMillion") ? root.get("samplingRatePerMillion").asLong() : 0;
        List<String> errors = validate(endpoint, rate);
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(errors.size() == 1 ? errors.getFirst() : "[" + String.join(", ", errors) + "]");
        }
        return new TracingConfiguration(endpoint == null ? DEFAULT_ENDPOINT : endpoint, (int) rate);
    }

    /** kube's {@code ValidateTracingConfiguration}. */
    static List<String> validate(String endpoint, long rate) {
        List<String> errors = new ArrayList<>();
        if (rate < 0) {
            errors.add("samplingRatePerMillion: Invalid value: " + rate + ": sampling rate must be positive");
        }
        if (rate > MAX_SAMPLING_RATE) {
            errors.add("samplingRatePerMillion: Invalid value: " + rate
                    + ": sampling rate per million must be less than or equal to one million");
        }
        if (endpoint != null) {
            String target = endpoint.contains("//") ? endpoint : "dns://" + endpoint;
            try {
                String scheme = new URI(target).getScheme();
                if (!Set.of("dns", "unix", "unix-abstract").contains(scheme)) {
                    errors.add("endpoint: Invalid value: \"" + target + "\": unsupported scheme: " + scheme
                            + ".  Options are none, dns, unix, or unix-abstract.  See "
                            + "https://github.com/grpc/grpc/blob/master/doc/naming.md");
                }
            } catch (URISyntaxException e) {
                errors.add("endpoint: Invalid value: \"" + target + "\": " + e.getMessage());
            }
        }
        return errors;
    }

    /** The exporter's URL: OTLP/gRPC in plain text (as kube's exporter, which dials insecurely). */
    String exporterUrl() {
        String hostPort = endpoint.startsWith("dns://") ? endpoint.substring("dns://".length()).replaceFirst("^[^/]*/", "")
                : endpoint;
        return "http://" + hostPort;
    }
}

package io.kapi.tracing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class TracingConfigurationTest {

    @TempDir
    Path dir;

    private TracingConfiguration read(String yaml) throws Exception {
        Path file = dir.resolve("tracing.yaml");
        Files.writeString(file, yaml);
        return TracingConfiguration.read(file);
    }

    private String error(String yaml) {
        return assertThrows(IllegalArgumentException.class, () -> read(yaml)).getMessage();
    }

    @Test
    @DisplayName("kube's defaults: localhost:4317 and sampling 0 (only what the caller sampled)")
    void defaults() throws Exception {
        TracingConfiguration c = read("apiVersion: apiserver.config.k8s.io/v1\nkind: TracingConfiguration\n");
        assertEquals(new TracingConfiguration("localhost:4317", 0), c);
        assertEquals("http://localhost:4317", c.exporterUrl());
        assertEquals(new TracingConfiguration("dns:///collector:4317", 250),
                read("apiVersion: apiserver.config.k8s.io/v1beta1\nkind: TracingConfiguration\n"
                        + "endpoint: dns:///collector:4317\nsamplingRatePerMillion: 250\n"));
        assertEquals("http://collector:4317", new TracingConfiguration("dns:///collector:4317", 0).exporterUrl());
    }

    @Test
    @DisplayName("kube's validation errors: sampling rate out of range, endpoint scheme, wrong kind")
    void validation() {
        String head = "apiVersion: apiserver.config.k8s.io/v1\nkind: TracingConfiguration\n";
        assertEquals("samplingRatePerMillion: Invalid value: -1: sampling rate must be positive",
                error(head + "samplingRatePerMillion: -1\n"));
        assertEquals("samplingRatePerMillion: Invalid value: 1000001: sampling rate per million must be less than or "
                + "equal to one million", error(head + "samplingRatePerMillion: 1000001\n"));
        assertEquals("endpoint: Invalid value: \"http://collector:4317\": unsupported scheme: http.  Options are none, "
                + "dns, unix, or unix-abstract.  See https://github.com/grpc/grpc/blob/master/doc/naming.md",
                error(head + "endpoint: http://collector:4317\n"));
        assertEquals("failed to read tracing config: unable to decode tracing configuration data: no kind "
                + "\"EgressSelectorConfiguration\" is registered for version \"apiserver.config.k8s.io/v1\"",
                error("apiVersion: apiserver.config.k8s.io/v1\nkind: EgressSelectorConfiguration\n"));
    }
}

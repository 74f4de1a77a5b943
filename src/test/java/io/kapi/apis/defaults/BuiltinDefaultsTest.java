package io.kapi.apis.defaults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.registry.Defaulter;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayName("Built-in defaulting, as kube-apiserver 1.34")
class BuiltinDefaultsTest {

    /** Fixture files under {@code src/test/resources/defaults}: lists of {name, input, expected}. */
    private static final List<String> FIXTURES = List.of("core.yaml", "workloads.yaml", "groups.yaml");

    record Case(ObjectNode input, ObjectNode expected) {
    }

    static List<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (String file : FIXTURES) {
            try (InputStream in = BuiltinDefaultsTest.class.getResourceAsStream("/defaults/" + file)) {
                for (JsonNode c : Json.YAML.readTree(in)) {
                    Case value = new Case((ObjectNode) c.get("input"), (ObjectNode) c.get("expected"));
                    out.add(Arguments.of(Named.of(file + ": " + c.get("name").asText(), value)));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    @DisplayName("defaulting the input gives what kube-apiserver returns")
    void defaults(Case c) {
        ObjectNode object = c.input().deepCopy();
        defaulter(object).apply(object);
        assertEquals(c.expected(), object);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    @DisplayName("defaulting twice is defaulting once")
    void idempotent(Case c) {
        ObjectNode object = c.input().deepCopy();
        defaulter(object).apply(object);
        ObjectNode once = object.deepCopy();
        defaulter(object).apply(object);
        assertEquals(once, object);
    }

    @ParameterizedTest(name = "image \"{0}\" is pulled {1}")
    @CsvSource(value = {
        "nginx, Always",
        "nginx:latest, Always",
        "nginx:1.27, IfNotPresent",
        "library/nginx, Always",
        "localhost:5000/nginx, Always",
        "localhost:5000/nginx:1.0, IfNotPresent",
        "nginx@sha256:0123456789abcdef, IfNotPresent",
        "nginx:latest@sha256:0123456789abcdef, Always",
        "'', IfNotPresent"})
    @DisplayName("the pull policy follows the image tag")
    void pullPolicy(String image, String policy) {
        assertEquals(policy, Containers.pullPolicy(image));
    }

    @Test
    @DisplayName("a kind without defaults gets the no-op defaulter")
    void none() {
        assertSame(Defaulter.NONE, BuiltinDefaults.forKind(new GroupVersionKind("", "v1", "ConfigMap")));
        assertSame(Defaulter.NONE, BuiltinDefaults.forKind(new GroupVersionKind("example.com", "v1", "Widget")));
    }

    @Test
    @DisplayName("a resource slice's device taints get the time they were added, once")
    void taintTime() throws IOException {
        ObjectNode slice = (ObjectNode) Json.YAML.readTree("""
                apiVersion: resource.k8s.io/v1
                kind: ResourceSlice
                spec:
                  devices:
                  - name: gpu-0
                    taints: [{key: broken, effect: NoSchedule}]
                """);
        defaulter(slice).apply(slice);
        JsonNode added = slice.at("/spec/devices/0/taints/0/timeAdded");
        assertEquals(20, added.asText().length(), added::toString);
        defaulter(slice).apply(slice);
        assertEquals(added, slice.at("/spec/devices/0/taints/0/timeAdded"));
    }

    private static Defaulter defaulter(ObjectNode object) {
        String apiVersion = object.get("apiVersion").asText();
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        String version = apiVersion.substring(slash + 1);
        return BuiltinDefaults.forKind(new GroupVersionKind(group, version, object.get("kind").asText()));
    }
}

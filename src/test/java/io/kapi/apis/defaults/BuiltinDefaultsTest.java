package io.kapi.apis.defaults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.Operation;
import io.kapi.admission.plugin.DefaultTolerationSeconds;
import io.kapi.apis.groups.BuiltinKinds;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.Json;
import io.kapi.machinery.quantity.Quantity;
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
                for (JsonNode c : Json.yaml().readTree(in)) {
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
    @DisplayName("defaulting the input (and, for pods, the pure DefaultTolerationSeconds admission) gives what kube-apiserver returns")
    void defaults(Case c) {
        ObjectNode object = c.input().deepCopy();
        defaulter(object).apply(object);
        tolerations(object);
        assertEquals(c.expected(), object);
    }

    /** The default-on DefaultTolerationSeconds admission plugin: a pure function of a pod, which the fixtures include. */
    private static void tolerations(ObjectNode object) {
        if (object.path("kind").asText().equals("Pod") && object.path("apiVersion").asText().equals("v1")) {
            new DefaultTolerationSeconds(300, 300).admit(new Attributes(Operation.CREATE, new Attributes.Target(
                    new GroupVersionKind("", "v1", "Pod"), new GroupVersionResource("", "v1", "pods"), "", "default",
                    "p"), object, null, null, false, Json.object()));
        }
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
        "nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef, IfNotPresent",
        "nginx:latest@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef, Always",
        "nginx:latest@sha256:0123, IfNotPresent",
        "Nginx, IfNotPresent",
        "Registry.Example.com/team/app, Always",
        "[::1]:5000/app:latest, Always",
        "'', IfNotPresent"})
    @DisplayName("the pull policy follows the image tag")
    void pullPolicy(String image, String policy) {
        assertEquals(policy, Containers.pullPolicy(image));
    }

    @ParameterizedTest(name = "{0} is written {1}")
    @CsvSource(value = {
        "0.5, 500m", "2.5, 2500m", "1000m, 1", "1, 1", "1.0, 1", "100m, 100m", "01, 1",
        "2000, 2k", "2048, 2048", "1000M, 1G", "128974848, 128974848",
        "1Ki, 1Ki", "1024Mi, 1Gi", "1.5Gi, 1536Mi", "0.5Gi, 512Mi", "0.5Ki, 512", "1.1Ki, 1126400m",
        "1e3, 1e3", "1.5e3, 1500", "129e6, 129e6", "12E2, 1200",
        "100u, 1m", "0.0001, 1m", "1.0001, 1001m", "0, 0", "0Mi, 0", "-1, -1"})
    @DisplayName("resource list quantities are rounded up to milli units and written canonically")
    void quantities(String input, String canonical) {
        assertEquals(canonical, Quantity.canonical(input, 3));
    }

    @ParameterizedTest(name = "\"{0}\" is not a quantity")
    @CsvSource(value = {"abc", "1Qi", ".", "1.2.3", "''"})
    @DisplayName("what is not a quantity is left for validation to report")
    void notQuantities(String input) {
        assertEquals(null, Quantity.canonical(input, 3));
    }

    @Test
    @DisplayName("a kind without defaults gets the no-op defaulter")
    void none() {
        assertSame(Defaulter.NONE, BuiltinKinds.of(new GroupVersionKind("", "v1", "ConfigMap")).defaults());
        assertSame(Defaulter.NONE, BuiltinKinds.of(new GroupVersionKind("example.com", "v1", "Widget")).defaults());
    }

    @Test
    @DisplayName("a resource slice's device taints get the time they were added, once")
    void taintTime() throws IOException {
        ObjectNode slice = (ObjectNode) Json.yaml().readTree("""
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
        return BuiltinKinds.of(new GroupVersionKind(group, version, object.get("kind").asText())).defaults();
    }
}

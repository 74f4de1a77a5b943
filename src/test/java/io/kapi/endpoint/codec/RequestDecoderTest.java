package io.kapi.endpoint.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionKind;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RequestDecoderTest {

    private static final GroupVersionKind CM = new GroupVersionKind("", "v1", "ConfigMap");

    private static Decoded decode(String contentType, String body) {
        return RequestDecoder.decode(contentType, new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)), CM);
    }

    private static ApiException failure(String contentType, String body) {
        return assertThrows(ApiException.class, () -> decode(contentType, body));
    }

    @Test
    @DisplayName("a JSON body decodes to an object with numbers and strings as written")
    void decodesJson() {
        Decoded d = decode("application/json", "{\"kind\":\"ConfigMap\",\"data\":{\"a\":\"x\\n\\u00e9\"},\"n\":12,\"f\":1.5}");
        assertEquals("x\né", d.object().path("data").path("a").textValue());
        assertEquals(12, d.object().path("n").intValue());
        assertEquals("1.5", d.object().path("f").decimalValue().toPlainString());
        assertEquals(List.of(), d.duplicateFields());
        assertEquals(Format.JSON, d.format());
    }

    @Test
    @DisplayName("a missing Content-Type means JSON; charset parameters are ignored")
    void missingContentTypeIsJson() {
        assertEquals(Format.JSON, decode(null, "{}").format());
        assertEquals(Format.JSON, decode("application/json; charset=utf-8", "{}").format());
        assertEquals(Format.YAML, decode("application/yaml", "a: b").format());
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @DisplayName("other content types, patch types included, are 415")
    @MethodSource("unsupported")
    void unsupportedMediaType(String contentType) {
        ApiException e = failure(contentType, "{}");
        assertEquals(415, e.code());
        assertEquals("UnsupportedMediaType", e.reason().wire());
    }

    static Stream<String> unsupported() {
        return Stream.of("text/plain", "application/merge-patch+json", "application/json-patch+json",
                "application/vnd.kubernetes.protobuf", "garbage");
    }

    @Test
    @DisplayName("duplicate JSON keys are reported by path, last value kept")
    void duplicatesJson() {
        Decoded d = decode("application/json", "{\"metadata\":{\"name\":\"a\",\"name\":\"b\"},"
                + "\"spec\":{\"containers\":[{\"name\":\"x\"},{\"name\":\"y\",\"name\":\"z\"}]}}");
        assertEquals(List.of("duplicate field \"metadata.name\"", "duplicate field \"spec.containers[1].name\""),
                d.duplicateFields());
        assertEquals("b", d.object().path("metadata").path("name").textValue());
    }

    @Test
    @DisplayName("duplicate YAML keys are one message with line numbers, as sigs.k8s.io/yaml words it")
    void duplicatesYaml() {
        Decoded d = decode("application/yaml", "metadata:\n  name: a\n  name: b\n");
        assertEquals(List.of("error converting YAML to JSON: yaml: unmarshal errors:\n"
                + "  line 3: key \"name\" already set in map"), d.duplicateFields());
        assertEquals("b", d.object().path("metadata").path("name").textValue());
    }

    @Test
    @DisplayName("a multi-document YAML body decodes its first document only")
    void multiDocumentYaml() {
        Decoded d = decode("application/yaml", "---\nkind: A\n---\nkind: B\n");
        assertEquals("A", d.object().path("kind").textValue());
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @DisplayName("malformed JSON is 400 with Go's encoding/json wording")
    @MethodSource("malformedJson")
    void malformedJson(String body, String expected) {
        ApiException e = failure("application/json", body);
        assertEquals(400, e.code());
        assertEquals(expected, e.getMessage());
    }

    static Stream<Arguments> malformedJson() {
        String p = "the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: ";
        return Stream.of(
                Arguments.of("", p + "unexpected end of JSON input (<empty>)"),
                Arguments.of("{", p + "unexpected end of JSON input ({)"),
                Arguments.of("{\"a\" 1}", p + "invalid character '1' after object key ({\"a\" 1})"),
                Arguments.of("{\"a\":1 \"b\"}", p + "invalid character '\"' after object key:value pair ({\"a\":1 \"b\"})"),
                Arguments.of("{\"a\":[1 2]}", p + "invalid character '2' after array element ({\"a\":[1 2]})"),
                Arguments.of("{a:1}", p + "invalid character 'a' looking for beginning of object key string ({a:1})"),
                Arguments.of("{\"a\":x}", p + "invalid character 'x' looking for beginning of value ({\"a\":x})"),
                Arguments.of("{\"a\":tru}", p + "invalid character '}' in literal true (expecting 'e') ({\"a\":tru})"),
                Arguments.of("{\"a\":-x}", p + "invalid character 'x' in numeric literal ({\"a\":-x})"),
                Arguments.of("{\"a\":1.}", p + "invalid character '}' after decimal point in numeric literal ({\"a\":1.})"),
                Arguments.of("{\"a\":\"\\q\"}", p + "invalid character 'q' in string escape code ({\"a\":\"\\q\"})"),
                Arguments.of("{} x", p + "invalid character 'x' after top-level value ({} x)"),
                Arguments.of("hello", p + "invalid character 'h' looking for beginning of value (68656c6c6f)"),
                Arguments.of("[1]", p + "json: cannot unmarshal array into Go value of type struct { APIVersion string "
                        + "\"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" } (5b315d)"),
                Arguments.of("{\"kind\":1}", p + "json: cannot unmarshal number into Go struct field .kind of type string ({\"kind\":1})"),
                Arguments.of("{\"data\":{\"k\":\"0123456789012345678901234567890\"",
                        p + "unexpected end of JSON input ({\"data\":{\"k\":\"0123456789012345 ...)"));
    }

    @Test
    @DisplayName("malformed YAML is 400 with go-yaml's style: line and problem")
    void malformedYaml() {
        ApiException e = failure("application/yaml", "a: b\nc: [d\n");
        assertEquals(400, e.code());
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().startsWith(
                "the object provided is unrecognized (must be of type ConfigMap): error converting YAML to JSON: yaml: line "),
                e.getMessage());
    }

    @Test
    @DisplayName("YAML aliases of maps are resolved; integral floats become integers as in Go's conversion")
    void yamlAliasesAndFloats() {
        Decoded d = decode("application/yaml", "base: &b {a: 1}\ncopy: *b\nreplicas: 2.0\non: yes\n");
        assertEquals("{\"base\":{\"a\":1},\"copy\":{\"a\":1},\"replicas\":2,\"on\":true}", d.object().toString());
    }

    @Test
    @DisplayName("a YAML list body is 400 like a JSON one")
    void yamlListIsBadRequest() {
        ApiException e = failure("application/yaml", "- a\n");
        assertEquals(400, e.code());
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("cannot unmarshal array into Go value"));
    }

    @Test
    @DisplayName("an empty YAML body and a JSON null decode to an empty object")
    void emptyYamlIsEmptyObject() {
        assertEquals(0, decode("application/yaml", "").object().size());
        assertEquals(0, decode("application/json", "null").object().size());
    }

    @Test
    @DisplayName("nesting deeper than Go's 10,000 levels is 400, not a stack overflow; 5,000 levels decode, as in Go")
    void tooDeep() {
        String deep = "{\"a\":" + "[".repeat(10_001) + "]".repeat(10_001) + "}";
        ApiException e = failure("application/json", deep);
        assertEquals(400, e.code());
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("invalid character '[' exceeded max depth"));
        decode("application/json", "{\"a\":" + "[".repeat(5_000) + "]".repeat(5_000) + "}");
        String yaml = "a: " + "[".repeat(10_001) + "]".repeat(10_001) + "\n";
        assertEquals(400, failure("application/yaml", yaml).code());
    }

    @Test
    @DisplayName("a body over 3 MiB is 413 RequestEntityTooLarge")
    void tooLarge() {
        byte[] big = new byte[3 * 1024 * 1024 + 1];
        ApiException e = assertThrows(ApiException.class,
                () -> RequestDecoder.decode("application/json", new ByteArrayInputStream(big), CM));
        assertEquals(413, e.code());
        assertEquals("Request entity too large: limit is 3145728", e.getMessage());
    }
}

package io.kapi.apiextensions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.apiextensions.validation.CrdValidation;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.Json;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The validation of a CustomResourceDefinition itself, as kube-apiserver words it: one change to a valid CRD
 * per case. A v1 CRD whose versions share one schema is validated as kube validates it after conversion to
 * the internal version, with the schema hoisted to {@code spec.validation} (hence the paths).
 */
class CrdValidationTest {

    private static final String VALID = """
            {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
             "metadata":{"name":"widgets.example.com"},
             "spec":{"group":"example.com","scope":"Namespaced",
              "names":{"plural":"widgets","singular":"widget","kind":"Widget","listKind":"WidgetList"},
              "versions":[{"name":"v1","served":true,"storage":true,
               "schema":{"openAPIV3Schema":{"type":"object","properties":{
                "spec":{"type":"object","properties":{"size":{"type":"integer"}}}}}}}]},
             "status":{"storedVersions":["v1"],"acceptedNames":{"plural":"","kind":""}}}
            """;

    private static ObjectNode crd(Consumer<ObjectNode> change) {
        ObjectNode crd;
        try {
            crd = (ObjectNode) Json.MAPPER.readTree(VALID);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        change.accept(crd);
        return crd;
    }

    private static ObjectNode spec(ObjectNode crd) {
        return (ObjectNode) crd.get("spec");
    }

    private static ObjectNode version(ObjectNode crd) {
        return (ObjectNode) crd.get("spec").get("versions").get(0);
    }

    private static ObjectNode specSchema(ObjectNode crd) {
        return (ObjectNode) version(crd).get("schema").get("openAPIV3Schema").get("properties").get("spec");
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("name other than plural.group", crd(c -> ((ObjectNode) c.get("metadata")).put("name", "w.example.com")),
                        "metadata.name: Invalid value: \"w.example.com\": must be spec.names.plural+\".\"+spec.group"),
                Arguments.of("unknown scope", crd(c -> spec(c).put("scope", "Galaxy")),
                        "spec.scope: Unsupported value: \"Galaxy\": supported values: \"Cluster\", \"Namespaced\""),
                Arguments.of("no storage version", crd(c -> version(c).put("storage", false)),
                        "must have exactly one version marked as storage version"),
                Arguments.of("a property without a type (not structural)",
                        crd(c -> ((ObjectNode) specSchema(c).get("properties").get("size")).remove("type")),
                        "spec.validation.openAPIV3Schema.properties[spec].properties[size].type: Required value: "
                                + "must not be empty for specified object fields"),
                Arguments.of("a default of the wrong type",
                        crd(c -> ((ObjectNode) specSchema(c).get("properties").get("size")).put("default", "big")),
                        "spec.validation.openAPIV3Schema.properties[spec].properties[size].default: Invalid value: "
                                + "\"string\":  in body must be of type integer: \"string\""),
                Arguments.of("a pattern of Java's syntax that Go's RE2 refuses (a possessive quantifier)",
                        crd(c -> specSchema(c).put("pattern", "a++")),
                        "spec.validation.openAPIV3Schema.properties[spec].pattern: Invalid value: \"a++\": must be a valid "
                                + "regular expression, but isn't: error parsing regexp: invalid nested repetition operator: `++`"),
                Arguments.of("a pattern with a Java character class",
                        crd(c -> specSchema(c).put("pattern", "\\p{javaLowerCase}")),
                        "must be a valid regular expression, but isn't: error parsing regexp: invalid character class range: "
                                + "`\\p{javaLowerCase}`"),
                Arguments.of("a pattern whose nested counted repetitions multiply past 1000",
                        crd(c -> specSchema(c).put("pattern", "(a{100}){11}")),
                        "must be a valid regular expression, but isn't: error parsing regexp: invalid repeat count: `{11}`"),
                Arguments.of("a pattern nested deeper than Go's 1000 levels",
                        crd(c -> specSchema(c).put("pattern", "(".repeat(3000) + "a" + ")".repeat(3000))),
                        "must be a valid regular expression, but isn't: error parsing regexp: expression nests too deeply: `((("),
                Arguments.of("a pattern whose program would pass Go's 128 MiB",
                        crd(c -> specSchema(c).put("pattern", "a{1000}".repeat(4000))),
                        "must be a valid regular expression, but isn't: error parsing regexp: expression too large: `a{1000}"),
                Arguments.of("a kind that is not a DNS label when lower-cased",
                        crd(c -> ((ObjectNode) spec(c).get("names")).put("kind", "Wid get")),
                        "spec.names.kind: Invalid value: \"Wid get\""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    @DisplayName("an invalid CRD is refused with kube-apiserver's field error")
    void refused(String name, ObjectNode crd, String expected) {
        List<FieldError> errors = CrdValidation.withCel().validate(crd);
        String all = errors.stream().map(FieldError::toString).reduce("", (a, b) -> a + "\n" + b);
        assertTrue(all.contains(expected), name + ": " + all);
    }

    @org.junit.jupiter.api.Test
    @DisplayName("the valid CRD has no errors")
    void valid() {
        assertEquals(List.of(), CrdValidation.withCel().validate(crd(c -> { })));
    }
}

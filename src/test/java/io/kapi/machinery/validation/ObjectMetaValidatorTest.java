package io.kapi.machinery.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.FieldError;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ObjectMetaValidatorTest {

    static final String SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
            + "'-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
            + "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    static final String LABEL = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
            + "and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for "
            + "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
    static final String DNS1035 = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start "
            + "with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', "
            + "regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
    static final String QNAME = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start "
            + "and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
            + "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    static final String LABEL_VALUE = "a valid label must be an empty string or consist of alphanumeric characters, "
            + "'-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  "
            + "or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

    static List<FieldError> validate(String meta, boolean namespaced, NameRule rule) {
        return ObjectMetaValidator.validate(SchemaValidatorTest.json(meta), namespaced, rule);
    }

    @ParameterizedTest(name = "[{index}] {0} {1}")
    @DisplayName("names are checked by the resource's rule with kube's messages")
    @MethodSource("names")
    void names(NameRule rule, String name, List<String> messages) {
        assertEquals(messages, rule.check(name, false));
    }

    static Stream<Arguments> names() {
        return Stream.of(
                Arguments.of(NameRule.DNS1123_SUBDOMAIN, "my-app.example.com", List.of()),
                Arguments.of(NameRule.DNS1123_SUBDOMAIN, "Bad_Name", List.of(SUBDOMAIN)),
                Arguments.of(NameRule.DNS1123_SUBDOMAIN, "a".repeat(254), List.of("must be no more than 253 characters")),
                Arguments.of(NameRule.DNS1123_LABEL, "kube-system", List.of()),
                Arguments.of(NameRule.DNS1123_LABEL, "a.b", List.of("must not contain dots")),
                Arguments.of(NameRule.DNS1123_LABEL, "-a", List.of(LABEL)),
                Arguments.of(NameRule.DNS1123_LABEL, "a".repeat(64), List.of("must be no more than 63 characters")),
                Arguments.of(NameRule.DNS1035_LABEL, "web", List.of()),
                Arguments.of(NameRule.DNS1035_LABEL, "1web", List.of(DNS1035)),
                Arguments.of(NameRule.PATH_SEGMENT, "system:controller:x", List.of()),
                Arguments.of(NameRule.PATH_SEGMENT, "..", List.of("may not be '..'")),
                Arguments.of(NameRule.PATH_SEGMENT, "a/b%c", List.of("may not contain '/'", "may not contain '%'")));
    }

    @ParameterizedTest(name = "[{index}] {0}/{1}")
    @DisplayName("resources map to kube's name rules; unknown ones are subdomains")
    @MethodSource("resources")
    void ruleTable(String group, String resource, NameRule rule) {
        assertEquals(rule, NameRule.forResource(group, resource));
    }

    static Stream<Arguments> resources() {
        return Stream.of(Arguments.of("", "namespaces", NameRule.DNS1123_LABEL),
                Arguments.of("", "services", NameRule.DNS1035_LABEL),
                Arguments.of("rbac.authorization.k8s.io", "clusterroles", NameRule.PATH_SEGMENT),
                Arguments.of("", "configmaps", NameRule.DNS1123_SUBDOMAIN),
                Arguments.of("apps", "deployments", NameRule.DNS1123_SUBDOMAIN));
    }

    @Test
    @DisplayName("a valid namespaced object's metadata has no errors")
    void valid() {
        assertEquals(List.of(), validate("{'name':'x','namespace':'default','labels':{'app.kubernetes.io/name':'web',"
                + "'tier':''},'annotations':{'Example.com/Note':'hi'},'finalizers':['kubernetes.io/pvc-protection']}",
                true, NameRule.DNS1123_SUBDOMAIN));
    }

    @Test
    @DisplayName("a bad name is Invalid on metadata.name with the rule's message")
    void badName() {
        assertEquals(List.of(FieldError.invalid("metadata.name", "\"Bad_Name\"", SUBDOMAIN)),
                validate("{'name':'Bad_Name','namespace':'default'}", true, NameRule.DNS1123_SUBDOMAIN));
        assertEquals("metadata.name: Invalid value: \"Bad_Name\": " + SUBDOMAIN,
                validate("{'name':'Bad_Name','namespace':'default'}", true, NameRule.DNS1123_SUBDOMAIN).getFirst().toString());
    }

    @Test
    @DisplayName("a missing name is Required 'name or generateName is required'")
    void missingName() {
        assertEquals(List.of(FieldError.required("metadata.name", "name or generateName is required")),
                validate("{'namespace':'default'}", true, NameRule.DNS1123_SUBDOMAIN));
    }

    @Test
    @DisplayName("generateName is a prefix: a trailing dash is fine, bad characters are not")
    void generateName() {
        assertEquals(List.of(), validate("{'generateName':'web-','name':'web-abcde','namespace':'d'}", true,
                NameRule.DNS1123_SUBDOMAIN));
        assertEquals(List.of(FieldError.invalid("metadata.generateName", "\"Web-\"", SUBDOMAIN)),
                validate("{'generateName':'Web-','name':'web-abcde','namespace':'d'}", true, NameRule.DNS1123_SUBDOMAIN));
    }

    @Test
    @DisplayName("namespace is required on namespaced kinds and forbidden on cluster-scoped ones")
    void namespace() {
        assertEquals(List.of(FieldError.required("metadata.namespace", "")), validate("{'name':'x'}", true,
                NameRule.DNS1123_SUBDOMAIN));
        assertEquals(List.of(FieldError.forbidden("metadata.namespace", "not allowed on this type")),
                validate("{'name':'x','namespace':'d'}", false, NameRule.DNS1123_SUBDOMAIN));
        assertEquals(List.of(FieldError.invalid("metadata.namespace", "\"Bad\"", LABEL)),
                validate("{'name':'x','namespace':'Bad'}", true, NameRule.DNS1123_SUBDOMAIN));
    }

    @Test
    @DisplayName("every name also obeys the path-segment rule")
    void pathSegmentAlways() {
        assertEquals(List.of(FieldError.invalid("metadata.name", "\"..\"", SUBDOMAIN)),
                validate("{'name':'..'}", false, NameRule.DNS1123_SUBDOMAIN));
    }

    @Test
    @DisplayName("label keys and values are checked with errors on metadata.labels")
    void labels() {
        List<FieldError> errs = validate("{'name':'x','labels':{'bad key':'v','k':'bad value','a/b/c':'v'}}", false,
                NameRule.DNS1123_SUBDOMAIN);
        assertEquals(List.of(FieldError.invalid("metadata.labels", "\"bad key\"", QNAME),
                FieldError.invalid("metadata.labels", "\"bad value\"", LABEL_VALUE),
                FieldError.invalid("metadata.labels", "\"a/b/c\"", "a qualified name must consist of alphanumeric "
                        + "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. "
                        + "'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
                        + "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' "
                        + "(e.g. 'example.com/MyName')")), errs);
    }

    @Test
    @DisplayName("a label key prefix must be a subdomain and a label value at most 63 characters")
    void labelPrefixAndLength() {
        List<FieldError> errs = validate("{'name':'x','labels':{'Ex.com/a':'" + "v".repeat(64) + "','/a':''}}", false,
                NameRule.DNS1123_SUBDOMAIN);
        assertEquals(List.of(FieldError.invalid("metadata.labels", "\"Ex.com/a\"", "prefix part " + SUBDOMAIN),
                FieldError.invalid("metadata.labels", "\"" + "v".repeat(64) + "\"", "must be no more than 63 characters"),
                FieldError.invalid("metadata.labels", "\"/a\"", "prefix part must be non-empty")), errs);
    }

    @Test
    @DisplayName("annotations over 256 KiB in total are Too long")
    void annotationsSize() {
        ObjectNode meta = SchemaValidatorTest.json("{'name':'x'}");
        meta.putObject("annotations").put("big", "x".repeat(256 * 1024));
        assertEquals(List.of(new FieldError(FieldError.Type.TOO_LONG, "metadata.annotations", null,
                "may not be more than 262144 bytes")), ObjectMetaValidator.validate(meta, false, NameRule.DNS1123_SUBDOMAIN));
        assertEquals("metadata.annotations: Too long: may not be more than 262144 bytes",
                ObjectMetaValidator.validate(meta, false, NameRule.DNS1123_SUBDOMAIN).getFirst().toString());
    }

    @Test
    @DisplayName("owner references need version, kind, name and uid; finalizers are qualified names")
    void ownersAndFinalizers() {
        List<FieldError> errs = validate("{'name':'x','ownerReferences':[{'apiVersion':'apps/','kind':'ReplicaSet'}],"
                + "'finalizers':['bad finalizer']}", false, NameRule.DNS1123_SUBDOMAIN);
        assertEquals(List.of(
                FieldError.invalid("metadata.ownerReferences.apiVersion", "\"apps/\"", "version must not be empty"),
                FieldError.invalid("metadata.ownerReferences.name", "\"\"", "name must not be empty"),
                FieldError.invalid("metadata.ownerReferences.uid", "\"\"", "uid must not be empty"),
                FieldError.invalid("metadata.finalizers", "\"bad finalizer\"", QNAME)), errs);
    }

    @Test
    @DisplayName("the request namespace fills an empty one, clears it on cluster scope, and a mismatch is 400")
    void requestNamespace() {
        ObjectNode obj = SchemaValidatorTest.json("{'metadata':{'name':'x'}}");
        ObjectMetaValidator.matchRequestNamespace(obj, "default");
        assertEquals("default", obj.path("metadata").path("namespace").asText());
        ObjectMetaValidator.matchRequestNamespace(obj, "");
        assertEquals(false, obj.path("metadata").has("namespace"));
        ObjectNode other = SchemaValidatorTest.json("{'metadata':{'name':'x','namespace':'a'}}");
        io.kapi.machinery.ApiException e = org.junit.jupiter.api.Assertions.assertThrows(
                io.kapi.machinery.ApiException.class, () -> ObjectMetaValidator.matchRequestNamespace(other, "b"));
        assertEquals(400, e.code());
        assertEquals("the namespace of the provided object does not match the namespace sent on the request", e.getMessage());
    }

    @Test
    @DisplayName("a negative generation is invalid")
    void negativeGeneration() {
        assertEquals(List.of(FieldError.invalid("metadata.generation", "-1", "must be greater than or equal to 0")),
                validate("{'name':'x','generation':-1}", false, NameRule.DNS1123_SUBDOMAIN));
    }
}

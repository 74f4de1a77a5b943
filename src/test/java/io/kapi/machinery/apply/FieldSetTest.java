package io.kapi.machinery.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FieldSetTest {

    /** fieldsV1 as kube-apiserver writes them (from the Kubernetes docs and live clusters). */
    static Stream<Arguments> kubeFixtures() {
        return Stream.of(
                Arguments.of("ConfigMap applied by kubectl (Server-Side Apply docs)", """
                        {"f:data":{"f:key":{}},"f:metadata":{"f:labels":{"f:test-label":{}}}}"""),
                Arguments.of("Deployment created by kubectl: value structs without '.', added maps with it", """
                        {"f:spec":{"f:progressDeadlineSeconds":{},"f:replicas":{},"f:revisionHistoryLimit":{},\
                        "f:selector":{},"f:strategy":{"f:rollingUpdate":{".":{},"f:maxSurge":{},\
                        "f:maxUnavailable":{}},"f:type":{}},"f:template":{"f:metadata":{"f:labels":{".":{},\
                        "f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{".":{},\
                        "f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:resources":{},\
                        "f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},\
                        "f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},\
                        "f:terminationGracePeriodSeconds":{}}}}}"""),
                Arguments.of("status conditions keyed by type, set items by value", """
                        {"f:metadata":{"f:finalizers":{".":{},"v:\\"kubernetes\\"":{}}},"f:status":{\
                        "f:conditions":{".":{},"k:{\\"type\\":\\"Available\\"}":{".":{},\
                        "f:lastTransitionTime":{},"f:status":{},"f:type":{}}}}}"""),
                Arguments.of("multi-field keys sorted by field name, numbers unquoted", """
                        {"f:spec":{"f:ports":{".":{},"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},\
                        "f:port":{},"f:protocol":{},"f:targetPort":{}}}}}"""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kubeFixtures")
    @DisplayName("fieldsV1 written by kube should read and write back byte for byte")
    void roundTrip(String name, String fixture) throws Exception {
        JsonNode in = Json.MAPPER.readTree(fixture);
        FieldSet set = FieldSet.fromFieldsV1(in);
        assertEquals(fixture, Json.MAPPER.writeValueAsString(set.toFieldsV1()));
    }

    @Test
    @DisplayName("a computed set should be written in kube's order: fields, then keys, then values, '.' first")
    void canonicalOrder() throws Exception {
        FieldSet set = FieldSet.fromFieldsV1(Json.MAPPER.readTree("""
                {"v:\\"b\\"":{},"k:{\\"name\\":\\"x\\"}":{"f:z":{},".":{},"f:a":{}},"f:b":{},"v:\\"a\\"":{},"f:a":{}}"""))
                .union(read("{\"f:c\":{}}"));
        assertEquals("""
                {"f:a":{},"f:b":{},"f:c":{},"k:{\\"name\\":\\"x\\"}":{".":{},"f:a":{},"f:z":{}},"v:\\"a\\"":{},\
                "v:\\"b\\"":{}}""", Json.MAPPER.writeValueAsString(set.toFieldsV1()));
    }

    @Test
    @DisplayName("a set read from fieldsV1 and left unchanged should write back the bytes it was read from")
    void unchangedKeepsBytes() throws Exception {
        String messy = "{\"f:b\":{},\"f:a\":{}}";
        assertEquals(messy, Json.MAPPER.writeValueAsString(read(messy).toFieldsV1()));
    }

    @Test
    @DisplayName("paths should print as structured-merge-diff prints them")
    void pathStrings() throws Exception {
        FieldSet set = FieldSet.fromFieldsV1(Json.MAPPER.readTree("""
                {"f:spec":{"f:replicas":{},"f:ports":{"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{"f:name":{}}}},\
                "f:metadata":{"f:finalizers":{"v:\\"a\\"":{}}}}"""));
        assertEquals("[.metadata.finalizers[=\"a\"], .spec.replicas, .spec.ports[port=80,protocol=\"TCP\"].name]",
                set.toString());
    }

    @Test
    @DisplayName("union, intersection and difference should work per path, keeping '.' members apart")
    void setOperations() throws Exception {
        FieldSet a = read("{\"f:a\":{},\"f:b\":{\".\":{},\"f:c\":{}}}");
        FieldSet b = read("{\"f:b\":{\"f:c\":{},\"f:d\":{}},\"f:e\":{}}");
        assertEquals(read("{\"f:a\":{},\"f:b\":{\".\":{},\"f:c\":{},\"f:d\":{}},\"f:e\":{}}"), a.union(b));
        assertEquals(read("{\"f:b\":{\"f:c\":{}}}"), a.intersection(b));
        assertEquals(read("{\"f:a\":{},\"f:b\":{}}"), a.difference(b));
        assertTrue(a.difference(a).isEmpty());
        assertTrue(a.has(List.of(new PathElement.Field("b"))));
        assertFalse(b.has(List.of(new PathElement.Field("b"))));
    }

    @Test
    @DisplayName("keys and values should match whatever the number representation")
    void numericKeys() throws Exception {
        FieldSet a = read("{\"k:{\\\"port\\\":80}\":{}}");
        FieldSet b = read("{\"k:{\\\"port\\\":80.0}\":{}}");
        assertEquals(a, b);
    }

    @Test
    @DisplayName("a malformed fieldsV1 should be rejected")
    void malformed() {
        assertThrows(IllegalArgumentException.class, () -> read("{\"x:a\":{}}"));
        assertThrows(IllegalArgumentException.class, () -> read("{\"f:a\":1}"));
        assertThrows(IllegalArgumentException.class, () -> read("{\"k:notjson\":{}}"));
    }

    private static FieldSet read(String json) throws Exception {
        return FieldSet.fromFieldsV1(Json.MAPPER.readTree(json));
    }
}

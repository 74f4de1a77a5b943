package io.kapi.machinery.apply;

import static io.kapi.machinery.apply.Fixtures.CONFIGMAPS;
import static io.kapi.machinery.apply.Fixtures.DEPLOYMENTS;
import static io.kapi.machinery.apply.Fixtures.at;
import static io.kapi.machinery.apply.Fixtures.fieldsOf;
import static io.kapi.machinery.apply.Fixtures.json;
import static io.kapi.machinery.apply.Fixtures.managers;
import static io.kapi.machinery.apply.Fixtures.stored;
import static io.kapi.machinery.apply.Fixtures.yaml;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RecordUpdateTest {

    private static final String CM = """
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: cm, namespace: default, labels: {team: a}}
            data: {a: "1", b: "2"}
            """;

    private static ObjectNode created(String manager) {
        return stored(CONFIGMAPS.recordUpdate(null, yaml(CM), manager, "", at(0)));
    }

    @Test
    @DisplayName("create should give the creator every field it set, identity metadata excluded")
    void create() {
        ObjectNode obj = created("kubectl-create");
        assertEquals(json("""
                {"f:data":{".":{},"f:a":{},"f:b":{}},"f:metadata":{"f:labels":{".":{},"f:team":{}}}}"""),
                fieldsOf(obj, "kubectl-create", "Update"));
        assertEquals("2026-01-01T00:00:00Z", obj.at("/metadata/managedFields/0/time").asText());
        assertEquals("v1", obj.at("/metadata/managedFields/0/apiVersion").asText());
    }

    @Test
    @DisplayName("create should record what kube's typed objects show: no explicit nulls, no value structs")
    void createLikeTypedObjects() {
        ObjectNode d = yaml(Fixtures.DEPLOYMENT);
        d.with("spec").with("template").with("metadata").putNull("creationTimestamp");
        d.with("spec").putObject("strategy");
        d.putObject("status");
        ObjectNode out = DEPLOYMENTS.recordUpdate(null, d, "kubectl-create", "", at(0));
        assertEquals(json("""
                {"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:replicas":{},"f:selector":{},\
                "f:template":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{\
                "k:{\\"name\\":\\"nginx\\"}":{".":{},"f:image":{},"f:name":{}}}}}}}"""),
                fieldsOf(out, "kubectl-create", "Update"));
    }

    @Test
    @DisplayName("an update by a second manager should move the fields it changed and leave the rest")
    void twoManagers() {
        ObjectNode old = created("kubectl-create");
        ObjectNode next = old.deepCopy();
        next.with("data").put("a", "changed");
        next.with("data").put("c", "3");
        ObjectNode out = CONFIGMAPS.recordUpdate(old, next, "kubectl-edit", "", at(5));
        assertEquals("kubectl-create/Update, kubectl-edit/Update", managers(out));
        assertEquals(json("""
                {"f:data":{".":{},"f:b":{}},"f:metadata":{"f:labels":{".":{},"f:team":{}}}}"""),
                fieldsOf(out, "kubectl-create", "Update"));
        assertEquals(json("{\"f:data\":{\"f:a\":{},\"f:c\":{}}}"), fieldsOf(out, "kubectl-edit", "Update"));
    }

    @Test
    @DisplayName("removing a field should take it from its owner; an owner left with nothing disappears")
    void removal() {
        ObjectNode old = created("creator");
        ObjectNode next = old.deepCopy();
        next.remove("data");
        next.with("metadata").remove("labels");
        ObjectNode out = CONFIGMAPS.recordUpdate(old, next, "remover", "", at(5));
        assertEquals("", managers(out));
        assertFalse(out.path("metadata").has("managedFields"));
    }

    @Test
    @DisplayName("an update that changes nothing should keep entries and their times")
    void noop() {
        ObjectNode old = created("creator");
        ObjectNode out = CONFIGMAPS.recordUpdate(old, old.deepCopy(), "someone", "", at(9));
        assertEquals(old.path("metadata").path("managedFields"), out.path("metadata").path("managedFields"));
    }

    @Test
    @DisplayName("a manager's successive updates should merge into one entry with the latest time")
    void sameManagerMerges() {
        ObjectNode old = created("editor");
        ObjectNode next = old.deepCopy();
        next.with("data").put("z", "26");
        ObjectNode out = CONFIGMAPS.recordUpdate(old, next, "editor", "", at(7));
        assertEquals("editor/Update", managers(out));
        assertEquals("2026-01-01T00:00:07Z", out.at("/metadata/managedFields/0/time").asText());
        assertEquals(json("""
                {"f:data":{".":{},"f:a":{},"f:b":{},"f:z":{}},"f:metadata":{"f:labels":{".":{},"f:team":{}}}}"""),
                fieldsOf(out, "editor", "Update"));
    }

    @Test
    @DisplayName("a subresource update should get its own entry and ignore managedFields in the request")
    void subresource() {
        ObjectNode old = stored(DEPLOYMENTS.recordUpdate(null, yaml(Fixtures.DEPLOYMENT), "kubectl", "", at(0)));
        ObjectNode next = old.deepCopy();
        next.with("status").put("replicas", 2);
        next.with("metadata").putArray("managedFields");
        ObjectNode out = DEPLOYMENTS.recordUpdate(old, next, "kube-controller-manager", "status", at(3));
        assertEquals("kubectl/Update, kube-controller-manager/Update/status", managers(out));
        assertEquals(json("{\"f:status\":{\"f:replicas\":{}}}"), fieldsOf(out, "kube-controller-manager", "Update"));
    }

    static Stream<Arguments> requestManagedFields() {
        return Stream.of(
                Arguments.of("an empty list resets them", "[]", ""),
                Arguments.of("a list of one empty entry resets them", "[{}]", ""),
                Arguments.of("an unknown operation falls back to the stored ones",
                        "[{\"manager\":\"x\",\"operation\":\"Patch\",\"apiVersion\":\"v1\",\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{}}]",
                        "creator/Update"),
                Arguments.of("a missing fieldsType falls back to the stored ones",
                        "[{\"manager\":\"x\",\"operation\":\"Update\",\"apiVersion\":\"v1\",\"fieldsV1\":{}}]",
                        "creator/Update"),
                Arguments.of("an invalid fieldsV1 falls back to the stored ones",
                        "[{\"manager\":\"x\",\"operation\":\"Update\",\"apiVersion\":\"v1\",\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"q:1\":{}}}]",
                        "creator/Update"),
                Arguments.of("valid ones replace the stored ones (kubectl's client-side upgrade relies on it)",
                        "[{\"manager\":\"kubectl\",\"operation\":\"Apply\",\"apiVersion\":\"v1\",\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"f:data\":{\"f:a\":{}}}}]",
                        "kubectl/Apply"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requestManagedFields")
    @DisplayName("managedFields sent by a client should be used, reset or ignored as kube does")
    void clientManagedFields(String name, String sent, String expectedManagers) {
        ObjectNode old = created("creator");
        ObjectNode next = old.deepCopy();
        next.with("metadata").set("managedFields", json(sent));
        ObjectNode out = CONFIGMAPS.recordUpdate(old, next, "creator", "", at(4));
        assertEquals(expectedManagers, managers(out));
    }

    @Test
    @DisplayName("an update of an object without managedFields should not start tracking")
    void untrackedStaysUntracked() {
        ObjectNode old = stored(yaml(CM));
        ObjectNode next = old.deepCopy();
        next.with("data").put("a", "x");
        ObjectNode out = CONFIGMAPS.recordUpdate(old, next, "editor", "", at(1));
        assertFalse(out.path("metadata").has("managedFields"));
    }

    @Test
    @DisplayName("more than ten update managers should fold the oldest into ancient-changes")
    void capsUpdateManagers() {
        ObjectNode obj = created("m00");
        for (int i = 1; i <= 11; i++) {
            ObjectNode next = obj.deepCopy();
            next.with("data").put("k" + i, "v");
            obj = CONFIGMAPS.recordUpdate(obj, next, "m%02d".formatted(i), "", at(i));
        }
        assertEquals("ancient-changes/Update, m03/Update, m04/Update, m05/Update, m06/Update, m07/Update, "
                + "m08/Update, m09/Update, m10/Update, m11/Update", managers(obj));
        assertEquals(json("""
                {"f:data":{".":{},"f:a":{},"f:b":{},"f:k1":{},"f:k2":{}},"f:metadata":{"f:labels":{".":{},"f:team":{}}}}"""),
                fieldsOf(obj, "ancient-changes", "Update"));
    }

    static Stream<Arguments> userAgents() {
        return Stream.of(
                Arguments.of(null, "kubectl/v1.32.0 (linux/amd64) kubernetes/70d3cc9", "kubectl"),
                Arguments.of("kubectl-client-side-apply", "kubectl/v1.32.0 (linux/amd64) kubernetes/70d3cc9",
                        "kubectl-client-side-apply"),
                Arguments.of("", "kube-controller-manager/v1.32.0 (linux/amd64) kubernetes/70d3cc9/system:serviceaccount",
                        "kube-controller-manager"),
                Arguments.of("", "Go-http-client/2.0", "Go-http-client"),
                Arguments.of("", "my\u0001tool", "mytool"),
                Arguments.of("", "x".repeat(200), "x".repeat(128)));
    }

    @ParameterizedTest(name = "fieldManager={0}, User-Agent={1}")
    @MethodSource("userAgents")
    @DisplayName("the default manager should be the User-Agent's product, printable, at most 128 bytes")
    void managerFromUserAgent(String fieldManager, String userAgent, String expected) {
        assertEquals(expected, FieldManagers.managerOrUserAgent(fieldManager, userAgent));
    }

    @Test
    @DisplayName("an apply without fieldManager should be 422 worded as kube-apiserver")
    void applyNeedsManager() {
        ApiException e = assertThrows(ApiException.class,
                () -> FieldManagers.validateFieldManager("PatchOptions", "", true));
        assertEquals(422, e.code());
        assertEquals("PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch",
                e.getMessage());
        assertEquals("fieldManager", e.details().causes().getFirst().field());
        assertEquals("FieldValueRequired", e.details().causes().getFirst().reason());
        FieldManagers.validateFieldManager("CreateOptions", "", false);
        ApiException bad = assertThrows(ApiException.class,
                () -> FieldManagers.validateFieldManager("CreateOptions", "a\u0001", false));
        assertEquals("CreateOptions.meta.k8s.io \"\" is invalid: fieldManager: Invalid value: \"a\\x01\": "
                + "invalid character U+0001 (at position 1)", bad.getMessage());
        assertNull(bad.details().name());
    }
}

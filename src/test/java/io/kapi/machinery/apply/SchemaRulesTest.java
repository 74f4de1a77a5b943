package io.kapi.machinery.apply;

import static io.kapi.machinery.apply.Fixtures.DEPLOYMENT;
import static io.kapi.machinery.apply.Fixtures.DEPLOYMENTS;
import static io.kapi.machinery.apply.Fixtures.MANAGERS;
import static io.kapi.machinery.apply.Fixtures.at;
import static io.kapi.machinery.apply.Fixtures.fieldsOf;
import static io.kapi.machinery.apply.Fixtures.json;
import static io.kapi.machinery.apply.Fixtures.managers;
import static io.kapi.machinery.apply.Fixtures.stored;
import static io.kapi.machinery.apply.Fixtures.yaml;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionKind;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SchemaRulesTest {

    @Test
    @DisplayName("fields the strategy resets should be owned by nobody and never conflict")
    void resetFields() {
        FieldManager main = DEPLOYMENTS.resetting(List.of(List.of("status")));
        ObjectNode config = yaml(DEPLOYMENT);
        config.with("status").put("replicas", 9);
        ObjectNode live = stored(main.apply(null, config, "kubectl", "", false, at(0)).object());
        assertFalse(fieldsOf(live, "kubectl", "Apply").has("f:status"));
        FieldManager status = DEPLOYMENTS.resetting(List.of(List.of("spec")));
        ObjectNode next = live.deepCopy();
        next.with("status").put("replicas", 1);
        next.with("spec").put("replicas", 1);
        ObjectNode out = status.recordUpdate(live, next, "kcm", "status", at(1));
        assertEquals(json("{\"f:status\":{\"f:replicas\":{}}}"), fieldsOf(out, "kcm", "Update"));
    }

    @Test
    @DisplayName("a custom kind should follow its OpenAPI schema; undeclared entries of a preserving struct are "
            + "owned as themselves and below")
    void customResourceSchema() {
        GroupVersionKind gvk = new GroupVersionKind("example.com", "v1", "Widget");
        FieldManager widgets = MANAGERS.forSchema(gvk, json("""
                {"type":"object","properties":{
                  "apiVersion":{"type":"string"},"kind":{"type":"string"},"metadata":{"type":"object"},
                  "spec":{"type":"object","properties":{
                     "items":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["id"],
                              "items":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":"string"}}}},
                     "tags":{"type":"array","items":{"type":"string"}},
                     "free":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}}}"""));
        ObjectNode config = yaml("""
                apiVersion: example.com/v1
                kind: Widget
                metadata: {name: w, labels: {a: b}}
                spec:
                  items: [{id: 1, v: x}]
                  tags: [t]
                  free: {anything: {goes: 1}}
                """);
        ObjectNode out = widgets.apply(null, config, "m", "", false, at(0)).object();
        assertEquals(json("""
                {"f:metadata":{"f:labels":{"f:a":{}}},"f:spec":{"f:free":{"f:anything":{".":{},"f:goes":{}}},\
                "f:items":{"k:{\\"id\\":1}":{".":{},"f:id":{},"f:v":{}}},"f:tags":{}}}"""),
                fieldsOf(out, "m", "Apply"));
        ObjectNode bad = config.deepCopy();
        bad.with("spec").put("nope", 1);
        ApiException e = assertThrows(ApiException.class, () -> widgets.apply(null, bad, "m", "", false, at(0)));
        assertEquals("failed to create typed patch object (example.com/v1, Kind=Widget): .spec.nope: "
                + "field not declared in schema", e.getMessage());
    }

    @Test
    @DisplayName("ports should be keyed by containerPort and protocol, the protocol defaulting to TCP")
    void portKeysUseDefaults() {
        ObjectNode config = yaml("""
                apiVersion: v1
                kind: Service
                metadata: {name: s}
                spec:
                  ports: [{port: 80, protocol: UDP}, {port: 80}]
                """);
        FieldManager services = MANAGERS.forKind(new GroupVersionKind("", "v1", "Service"));
        ObjectNode out = services.apply(null, config, "m", "", false, at(0)).object();
        assertEquals(json("""
                {"f:spec":{"f:ports":{"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:port":{}},\
                "k:{\\"port\\":80,\\"protocol\\":\\"UDP\\"}":{".":{},"f:port":{},"f:protocol":{}}}}}"""),
                fieldsOf(out, "m", "Apply"));
        assertEquals("m/Apply", managers(out));
    }
}

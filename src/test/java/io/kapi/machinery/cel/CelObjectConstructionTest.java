package io.kapi.machinery.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** CEL type construction of mutating admission policies: {@code Object{...}} and {@code JSONPatch{...}}. */
class CelObjectConstructionTest {

    private final CelEnvironment env = CelEnvironment.builder().dynamic("object").map("variables")
            .objectConstruction().build();

    private static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text.replace('\'', '"'));
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private Object eval(String expression, String objectJson) {
        return env.compile(expression).evaluate(Map.of("object", json(objectJson), "variables", Map.of()),
                CelBudget.unlimited());
    }

    @Test
    @DisplayName("Object{spec: Object.spec{...}} builds nested objects typed after their field path")
    void nestedObjects() {
        Object v = eval("Object{spec: Object.spec{replicas: object.spec.replicas + 1, paused: true},"
                + " metadata: Object.metadata{labels: {'team': 'a'}}}", "{'spec':{'replicas':2}}");
        CelObject root = assertInstanceOf(CelObject.class, v);
        assertEquals("Object", root.typeName());
        CelObject spec = assertInstanceOf(CelObject.class, root.fields().get("spec"));
        assertEquals("Object.spec", spec.typeName());
        assertEquals(3L, spec.fields().get("replicas"));
        assertEquals(List.of(), root.typeNameMismatches());
        assertEquals(json("{'spec':{'replicas':3,'paused':true},'metadata':{'labels':{'team':'a'}}}").toString(),
                CelValues.toJson(v).toString());
    }

    @Test
    @DisplayName("a constructed object's fields can be selected; a field it does not set is an error")
    void selection() {
        assertEquals(2L, eval("Object{spec: Object.spec{replicas: 2}}.spec.replicas", "{}"));
        CelError e = assertThrows(CelError.class, () -> eval("Object{spec: Object.spec{}}.spec.replicas", "{}"));
        assertEquals(CelError.Kind.EVALUATION, e.kind());
    }

    @Test
    @DisplayName("an object typed after another field path is reported as kube reports it")
    void typeNameMismatch() {
        CelObject v = (CelObject) eval("Object{spec: Object.spec{selector: Object.spec.wrong{}}}", "{}");
        assertEquals(List.of("unexpected type name \"Object.spec.wrong\", expected \"Object.spec.selector\", which "
                + "matches field name path from root Object type"), v.typeNameMismatches());
    }

    @Test
    @DisplayName("list items of an object field are typed after the list's path")
    void listItems() {
        CelObject v = (CelObject) eval("Object{spec: Object.spec{containers: [Object.spec.containers{name: 'a',"
                + " imagePullPolicy: 'Always'}]}}", "{}");
        assertEquals(List.of(), v.typeNameMismatches());
        assertEquals(json("{'spec':{'containers':[{'name':'a','imagePullPolicy':'Always'}]}}").toString(),
                CelValues.toJson(v).toString());
    }

    @Test
    @DisplayName("JSONPatch has typed op/path/from and a dyn value; other fields do not compile")
    void jsonPatch() {
        Object v = eval("[JSONPatch{op: 'add', path: '/metadata/labels/' + jsonpatch.escapeKey('a.io/b~c'),"
                + " value: object.spec.replicas * 2}]", "{'spec':{'replicas':4}}");
        List<?> list = assertInstanceOf(List.class, v);
        CelObject op = assertInstanceOf(CelObject.class, list.getFirst());
        assertEquals("JSONPatch", op.typeName());
        assertEquals("/metadata/labels/a.io~1b~0c", op.fields().get("path"));
        assertEquals(8L, op.fields().get("value"));
        CelError wrongType = assertThrows(CelError.class, () -> env.compile("JSONPatch{op: 1}"));
        assertTrue(wrongType.getMessage().contains("expected type of field 'op' is 'string'"), wrongType.getMessage());
        CelError unknown = assertThrows(CelError.class, () -> env.compile("JSONPatch{op: 'add', valu: 1}"));
        assertTrue(unknown.getMessage().contains("undefined field 'valu'"), unknown.getMessage());
    }

    @Test
    @DisplayName("the result type is known to the checker: Object, list(JSONPatch)")
    void resultTypes() {
        assertEquals("Object", env.compile("Object{spec: Object.spec{a: 1}}").resultType());
        assertEquals("list(JSONPatch)", env.compile("[JSONPatch{op: 'remove', path: '/a'}]").resultType());
    }

    @Test
    @DisplayName("the usual libraries still work on CEL values: macros, strings, optionals, has()")
    void libraries() {
        String o = "{'spec':{'containers':[{'name':'a'},{'name':'b','image':'x'}]}}";
        assertEquals(List.of("A", "B"), eval("object.spec.containers.map(c, c.name.upperAscii())", o));
        assertEquals(true, eval("object.spec.containers.exists(c, has(c.image))", o));
        assertEquals("none", eval("object.spec.?strategy.orValue('none')", o));
        assertEquals(true, eval("quantity('1Gi').isGreaterThan(quantity('1Mi'))", o));
        assertEquals(true, eval("has(Object{spec: Object.spec{a: 1}}.spec)", o));
        assertEquals(List.of(1L, 2L), eval("[1, 2].map(i, Object.spec{n: i}).map(s, s.n)", o));
        assertEquals(true, eval("'a-b'.matches('^[a-z-]+$')", o));
    }

    @Test
    @DisplayName("environments without object construction do not know Object")
    void notElsewhere() {
        CelEnvironment plain = CelEnvironment.builder().dynamic("object").build();
        assertThrows(CelError.class, () -> plain.compile("Object{spec: Object.spec{a: 1}}"));
    }
}

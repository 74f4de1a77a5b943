package io.kapi.machinery.patch;

import static io.kapi.machinery.patch.Fixtures.body;
import static io.kapi.machinery.patch.Fixtures.j;
import static io.kapi.machinery.patch.Fixtures.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class MergePatchTest {

    @ParameterizedTest(name = "{0} + {1} = {2}")
    @DisplayName("RFC 7386 appendix A examples (those with an object target)")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "{'a':'b'} | {'a':'c'} | {'a':'c'}",
            "{'a':'b'} | {'b':'c'} | {'a':'b','b':'c'}",
            "{'a':'b'} | {'a':null} | {}",
            "{'a':'b','b':'c'} | {'a':null} | {'b':'c'}",
            "{'a':['b']} | {'a':'c'} | {'a':'c'}",
            "{'a':'c'} | {'a':['b']} | {'a':['b']}",
            "{'a':{'b':'c'}} | {'a':{'b':'d','c':null}} | {'a':{'b':'d'}}",
            "{'a':[{'b':'c'}]} | {'a':[1]} | {'a':[1]}",
            "{'e':null} | {'a':1} | {'e':null,'a':1}",
            "{} | {'a':{'bb':{'ccc':null}}} | {'a':{'bb':{}}}"})
    void rfcExamples(String target, String patch, String expected) {
        assertEquals(j(expected), Patches.apply(PatchType.MERGE, obj(target), body(patch), null));
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("merge patch edge cases as evanphx's MergePatch")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "arrays are replaced, not merged | {'a':[1,2]} | {'a':[3]} | {'a':[3]}",
            "nulls inside a new object are dropped | {} | {'a':{'b':null,'c':1}} | {'a':{'c':1}}",
            "nulls in objects inside a new array are dropped | {} | {'a':[{'b':null,'c':1},null]} | {'a':[{'c':1},null]}",
            "a null member of the target is replaced | {'a':null} | {'a':{'b':null,'c':1}} | {'a':{'c':1}}",
            "deleting a missing member is fine | {'a':1} | {'b':null} | {'a':1}",
            "an empty patch changes nothing | {'a':1} | {} | {'a':1}"})
    void edges(String name, String target, String patch, String expected) {
        assertEquals(j(expected), Patches.apply(PatchType.MERGE, obj(target), body(patch), null));
    }

    @ParameterizedTest
    @DisplayName("a body that is not JSON, a scalar or null is 400 Invalid JSON Patch")
    @ValueSource(strings = {"null", "\"bar\"", "1", "true", "{", "nope", ""})
    void badBodies(String raw) {
        ApiException e = assertThrows(ApiException.class, () -> Patches.apply(PatchType.MERGE, obj("{'a':'foo'}"),
                raw.getBytes(StandardCharsets.UTF_8), null));
        assertEquals(400, e.code());
        assertEquals("Invalid JSON Patch", e.getMessage());
    }

    @Test
    @DisplayName("an array patch replaces the document, which is then not an object: 422")
    void arrayPatch() {
        ApiException e = assertThrows(ApiException.class,
                () -> Patches.apply(PatchType.MERGE, obj("{'a':'b'}"), body("['c']"), null));
        assertEquals(422, e.code());
    }

    @Test
    @DisplayName("the current object is never modified")
    void noMutation() {
        ObjectNode current = obj("{'a':{'b':1,'c':2}}");
        ObjectNode result = Patches.apply(PatchType.MERGE, current, body("{'a':{'b':null,'d':3}}"), null);
        assertEquals(obj("{'a':{'b':1,'c':2}}"), current);
        assertEquals(obj("{'a':{'c':2,'d':3}}"), result);
    }
}

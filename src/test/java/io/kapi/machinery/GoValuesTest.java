package io.kapi.machinery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Reads of JSON as a Go struct sees them: absent and null are zero values. */
class GoValuesTest {

    private static final JsonNode OBJECT = json("{'s':'x','e':'','n':5,'z':0,'b':true,'t':'true','nul':null,"
            + "'o':{'a':{'b':'deep'}},'eo':{},'l':[1,'two',{}],'el':[],'ns':'7'}");

    @ParameterizedTest(name = "{0}: text \"{1}\", has {2}")
    @DisplayName("text and has: scalars as written, containers and absent/null empty")
    @CsvSource(quoteCharacter = '`', value = {"s, x, true", "e, ``, true", "n, 5, true", "b, true, true",
        "nul, ``, false", "missing, ``, false", "o, ``, true", "l, ``, true", "ns, 7, true"})
    void textAndHas(String field, String text, boolean has) {
        assertEquals(text, GoValues.text(OBJECT, field));
        assertEquals(has, GoValues.has(OBJECT, field));
    }

    @ParameterizedTest(name = "{0}: unset {1}, blank {2}, zero {3}, empty {4}")
    @DisplayName("the zero-value tests of kube's defaulting")
    @CsvSource({"missing, true, true, true, true", "nul, true, true, true, true", "e, false, true, false, false",
        "s, false, false, false, false", "z, false, false, true, false", "n, false, false, false, false",
        "eo, false, false, false, true", "el, false, false, false, true", "o, false, false, false, false"})
    void zeroValues(String field, boolean unset, boolean blank, boolean zero, boolean empty) {
        JsonNode v = OBJECT.get(field);
        assertEquals(unset, GoValues.isUnset(v));
        assertEquals(blank, GoValues.isBlank(v));
        assertEquals(zero, GoValues.isZero(v));
        assertEquals(empty, GoValues.isEmpty(v));
    }

    @Test
    @DisplayName("paths, numbers, booleans, lists and sizes never throw")
    void reads() {
        assertEquals("deep", GoValues.text(OBJECT, "o", "a", "b"));
        assertEquals("", GoValues.text(OBJECT, "o", "x", "b"));
        assertEquals("", GoValues.text(null, "o"));
        assertTrue(GoValues.at(null, "a").isMissingNode());
        assertEquals("fallback", GoValues.textOr(OBJECT, "fallback", "e"));
        assertEquals(5, GoValues.integer(OBJECT, "n"));
        assertEquals(7, GoValues.integer(OBJECT, "ns"));
        assertEquals(0, GoValues.integer(OBJECT, "o"));
        assertTrue(GoValues.bool(OBJECT, "b"));
        assertTrue(GoValues.bool(OBJECT, "t"));
        assertFalse(GoValues.bool(OBJECT, "missing"));
        assertEquals(3, GoValues.items(OBJECT, "l").size());
        assertEquals(List.of(), GoValues.items(OBJECT, "s"));
        GoValues.items(OBJECT, "missing").add(OBJECT);
        assertEquals(3, GoValues.size(OBJECT, "l"));
        assertEquals(1, GoValues.size(OBJECT, "o"));
        assertEquals(0, GoValues.size(OBJECT, "s"));
        assertEquals("x", GoValues.textPointer(OBJECT, "s"));
        assertEquals("", GoValues.textPointer(OBJECT, "e"));
        assertNull(GoValues.textPointer(OBJECT, "nul"));
        assertNull(GoValues.textPointer(OBJECT, "missing"));
    }

    @Test
    @DisplayName("same: Semantic.DeepEqual's nil and empty are one")
    void same() {
        assertTrue(GoValues.same(null, json("{}")));
        assertTrue(GoValues.same(json("[]"), json("null")));
        assertTrue(GoValues.same(json("{'a':1}"), json("{'a':1}")));
        assertFalse(GoValues.same(json("{'a':1}"), json("{'a':2}")));
        assertFalse(GoValues.same(json("{'a':{}}"), json("{}")));
    }

    private static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text.replace('\'', '"'));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

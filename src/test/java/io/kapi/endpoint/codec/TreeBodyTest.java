package io.kapi.endpoint.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TreeBodyTest {

    private static final GroupVersionKind CM = new GroupVersionKind("", "v1", "ConfigMap");

    /** What the loopback client sent before: the tree's JSON, parsed by the API's reader. */
    private static JsonNode throughJson(JsonNode tree) throws Exception {
        return JsonTreeReader.read(Json.MAPPER.writeValueAsBytes(tree), new ArrayList<>());
    }

    private static ObjectNode sample() {
        ObjectNode o = Json.object();
        o.put("apiVersion", "v1");
        o.put("kind", "ConfigMap");
        o.putObject("metadata").put("name", "a").putObject("labels").put("x", "é\n\u0001");
        ObjectNode numbers = o.putObject("numbers");
        numbers.put("int", 7);
        numbers.put("longSmall", 7L);
        numbers.put("long", 1L << 40);
        numbers.put("bigSmall", BigInteger.valueOf(-3));
        numbers.put("big", BigInteger.ONE.shiftLeft(70));
        numbers.put("double", 1.5);
        numbers.put("doubleWhole", 2.0);
        numbers.put("decimal", new BigDecimal("0.10"));
        numbers.put("decimalWhole", new BigDecimal("5"));
        numbers.put("float", 0.25f);
        numbers.put("short", (short) 3);
        ArrayNode list = o.putArray("list");
        list.add(true).addNull().add("s").addArray().addObject();
        o.putNull("nothing");
        return o;
    }

    @Test
    @DisplayName("a tree taken as the body is what parsing its JSON gives: node types, numbers, key order")
    void copyIsTheParse() throws Exception {
        ObjectNode tree = sample();
        JsonNode copy = JsonTreeReader.copyOf(tree);
        JsonNode parsed = throughJson(tree);
        assertEquals(parsed, copy);
        assertEquals(parsed.toString(), copy.toString());
        // JsonNode equality tells an int node from a long node of the same value
        assertEquals(parsed.path("numbers").path("longSmall").getClass(), copy.path("numbers").path("longSmall").getClass());
        assertEquals(parsed.path("numbers").path("decimalWhole").getClass(), copy.path("numbers").path("decimalWhole").getClass());
        assertEquals(parsed.path("numbers").path("double").getClass(), copy.path("numbers").path("double").getClass());
        List<String> names = new ArrayList<>();
        copy.path("numbers").fieldNames().forEachRemaining(names::add);
        assertEquals(List.of("int", "longSmall", "long", "bigSmall", "big", "double", "doubleWhole", "decimal",
                "decimalWhole", "float", "short"), names);
    }

    @Test
    @DisplayName("the decoder's copy is the request's own: the handler changing it leaves the caller's tree alone")
    void decodedIsACopy() {
        ObjectNode tree = sample();
        String before = tree.toString();
        Decoded decoded = RequestDecoder.decode("application/json", new TreeBody(tree), CM);
        assertNotSame(tree, decoded.object());
        ((ObjectNode) decoded.object().path("metadata")).put("name", "changed");
        ((ArrayNode) decoded.object().path("list")).removeAll();
        assertEquals(before, tree.toString());
        assertEquals(List.of(), decoded.duplicateFields());
        assertEquals(Format.JSON, decoded.format());
    }

    @Test
    @DisplayName("read as a stream, a tree body is its JSON")
    void streamIsTheJson() throws Exception {
        ObjectNode tree = sample();
        assertArrayEquals(Json.MAPPER.writeValueAsBytes(tree), new TreeBody(tree).readAllBytes());
    }

    @Test
    @DisplayName("a tree body fails as its JSON would: not an object, a kind that is not a string")
    void failsAsTheJson() {
        ArrayNode notAnObject = Json.NODES.arrayNode().add(1);
        ApiException fromTree = assertThrows(ApiException.class,
                () -> RequestDecoder.decode("application/json", new TreeBody(notAnObject), CM));
        ApiException fromJson = assertThrows(ApiException.class, () -> RequestDecoder.decode("application/json",
                new ByteArrayInputStream(notAnObject.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)), CM));
        assertEquals(fromJson.getMessage(), fromTree.getMessage());
        assertEquals(fromJson.code(), fromTree.code());
        ObjectNode numericKind = Json.object().put("kind", 5);
        ApiException kind = assertThrows(ApiException.class,
                () -> RequestDecoder.decode("application/json", new TreeBody(numericKind), CM));
        assertEquals(400, kind.code());
    }

    @Test
    @DisplayName("numbers JSON has no form for are what their JSON reads back as (the mapper writes NaN as a string)")
    void nonFiniteNumbers() throws Exception {
        ObjectNode odd = Json.object().put("kind", "ConfigMap").put("n", Double.NaN).put("i", Double.POSITIVE_INFINITY);
        assertEquals(throughJson(odd), JsonTreeReader.copyOf(odd));
        assertEquals(throughJson(odd), RequestDecoder.decode("application/json", new TreeBody(odd), CM).object());
    }

    @Test
    @DisplayName("a tree deeper than the reader allows goes through its JSON, and fails as the JSON does")
    void tooDeep() {
        ObjectNode deep = Json.object();
        ObjectNode at = deep;
        for (int i = 0; i < JsonTreeReader.MAX_DEPTH + 5; i++) {
            at = at.putObject("a");
        }
        assertNull(JsonTreeReader.copyOf(deep));
        assertEquals(400, assertThrows(ApiException.class,
                () -> RequestDecoder.decode("application/json", new TreeBody(deep), CM)).code());
    }
}

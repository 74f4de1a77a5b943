package io.kapi.machinery.patch;

import static io.kapi.machinery.patch.Fixtures.body;
import static io.kapi.machinery.patch.Fixtures.j;
import static io.kapi.machinery.patch.Fixtures.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.StatusReason;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JsonPatchTest {

    private static ObjectNode patch(String doc, String ops) {
        return Patches.apply(PatchType.JSON, obj(doc), body(ops), null);
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("operations apply as kube-apiserver (evanphx/json-patch v4) applies them")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "add sets a new member | {'a':1} | [{'op':'add','path':'/b','value':2}] | {'a':1,'b':2}",
            "add replaces an existing member | {'a':1} | [{'op':'add','path':'/a','value':3}] | {'a':3}",
            "add inserts at an index | {'a':[1,2]} | [{'op':'add','path':'/a/1','value':9}] | {'a':[1,9,2]}",
            "add at the length appends | {'a':[1,2]} | [{'op':'add','path':'/a/2','value':9}] | {'a':[1,2,9]}",
            "add at - appends | {'a':[1,2]} | [{'op':'add','path':'/a/-','value':3}] | {'a':[1,2,3]}",
            "add at -1 appends | {'a':[1,2]} | [{'op':'add','path':'/a/-1','value':3}] | {'a':[1,2,3]}",
            "add without value adds null | {} | [{'op':'add','path':'/a'}] | {'a':null}",
            "remove deletes a member | {'a':1,'b':2} | [{'op':'remove','path':'/a'}] | {'b':2}",
            "remove deletes an element | {'a':[1,2,3]} | [{'op':'remove','path':'/a/1'}] | {'a':[1,3]}",
            "remove at -1 deletes the last element | {'a':[1,2,3]} | [{'op':'remove','path':'/a/-1'}] | {'a':[1,2]}",
            "replace sets a member | {'a':1} | [{'op':'replace','path':'/a','value':'x'}] | {'a':'x'}",
            "replace sets an element | {'a':[1,2]} | [{'op':'replace','path':'/a/0','value':5}] | {'a':[5,2]}",
            "replace of a missing member adds it | {'a':1} | [{'op':'replace','path':'/b','value':2}] | {'a':1,'b':2}",
            "replace of the root swaps the document | {'a':1} | [{'op':'replace','path':'','value':{'b':2}}] | {'b':2}",
            "move relocates a member | {'a':{'b':1}} | [{'op':'move','from':'/a/b','path':'/c'}] | {'a':{},'c':1}",
            "move relocates an element | {'a':[1,2,3]} | [{'op':'move','from':'/a/0','path':'/a/-'}] | {'a':[2,3,1]}",
            "copy duplicates a value | {'a':{'b':[1]}} | [{'op':'copy','from':'/a/b','path':'/c'}] | {'a':{'b':[1]},'c':[1]}",
            "copy of a missing member copies null | {'a':{}} | [{'op':'copy','from':'/a/x','path':'/c'}] | {'a':{},'c':null}",
            "test guards a replace | {'a':1} | [{'op':'test','path':'/a','value':1},{'op':'replace','path':'/a','value':2}] | {'a':2}",
            "test compares objects ignoring member order | {'a':{'x':1,'y':[1,2]}} | [{'op':'test','path':'/a','value':{'y':[1,2],'x':1}}] | {'a':{'x':1,'y':[1,2]}}",
            "test of null on a missing member passes | {'a':1} | [{'op':'test','path':'/b','value':null}] | {'a':1}",
            "test of the root | {'a':1} | [{'op':'test','path':'','value':{'a':1}}] | {'a':1}",
            "~1 and ~0 unescape to / and ~ | {'a/b':1,'m~n':2} | [{'op':'replace','path':'/a~1b','value':3},{'op':'replace','path':'/m~0n','value':4}] | {'a/b':3,'m~n':4}",
            "~01 unescapes to ~1 | {'~1':1} | [{'op':'remove','path':'/~01'}] | {}",
            "a label with a slash | {'metadata':{'labels':{}}} | [{'op':'add','path':'/metadata/labels/app.kubernetes.io~1name','value':'web'}] | {'metadata':{'labels':{'app.kubernetes.io/name':'web'}}}",
            "an empty patch changes nothing | {'a':1} | [] | {'a':1}",
            "a null patch changes nothing | {'a':1} | null | {'a':1}"})
    void applies(String name, String doc, String ops, String expected) {
        assertEquals(j(expected), patch(doc, ops));
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("an operation that does not apply is 422 with kube-apiserver's generic message")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "failed test | {'a':1} | [{'op':'test','path':'/a','value':2}]",
            "test of 1 against 1.0 | {'a':1} | [{'op':'test','path':'/a','value':1.0}]",
            "test of a number against a string | {'a':1} | [{'op':'test','path':'/a','value':'1'}]",
            "test of a value on a missing member | {'a':1} | [{'op':'test','path':'/b','value':1}]",
            "remove of a missing member | {'a':1} | [{'op':'remove','path':'/b'}]",
            "remove past the end | {'a':[1]} | [{'op':'remove','path':'/a/1'}]",
            "replace past the end | {'a':[1]} | [{'op':'replace','path':'/a/3','value':1}]",
            "add under a missing parent | {'a':1} | [{'op':'add','path':'/x/y','value':1}]",
            "add under a scalar | {'a':1} | [{'op':'add','path':'/a/b','value':1}]",
            "add past the end | {'a':[1]} | [{'op':'add','path':'/a/5','value':1}]",
            "add with a non-numeric index | {'a':[1]} | [{'op':'add','path':'/a/x','value':1}]",
            "add at the root | {'a':1} | [{'op':'add','path':'','value':{}}]",
            "a path without a leading slash | {'a':1} | [{'op':'remove','path':'a'}]",
            "move from a missing member | {'a':1} | [{'op':'move','from':'/b','path':'/c'}]",
            "copy to a missing parent | {'a':1} | [{'op':'copy','from':'/a','path':'/x/y'}]",
            "replace of the root with a scalar | {'a':1} | [{'op':'replace','path':'','value':1}]",
            "an unknown op | {'a':1} | [{'op':'frobnicate','path':'/a'}]",
            "an op without op | {'a':1} | [{'path':'/a'}]",
            "an op without path | {'a':1} | [{'op':'remove'}]",
            "a later op failing | {'a':1} | [{'op':'add','path':'/b','value':1},{'op':'remove','path':'/zzz'}]"})
    void rejects(String name, String doc, String ops) {
        ObjectNode current = obj(doc);
        ObjectNode before = current.deepCopy();
        ApiException e = assertThrows(ApiException.class,
                () -> Patches.apply(PatchType.JSON, current, body(ops), null));
        assertEquals(422, e.code());
        assertEquals(StatusReason.INVALID, e.reason());
        assertEquals("the server rejected our request due to an error in our request", e.getMessage());
        assertEquals(before, current, "the current object is left alone");
    }

    @ParameterizedTest(name = "{0}")
    @DisplayName("a body that is not a JSON array of operations is 400")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "an object | {\"op\":\"add\"} | json: cannot unmarshal object into Go value of type jsonpatch.Patch",
            "a number | 1 | json: cannot unmarshal number into Go value of type jsonpatch.Patch",
            "an array of numbers | [1] | json: cannot unmarshal number into Go value of type jsonpatch.Operation",
            "truncated JSON | [{\"op\": | unexpected end of JSON input",
            "not JSON | xyz | invalid character 'x' looking for beginning of value"})
    void badBodies(String name, String raw, String message) {
        ApiException e = assertThrows(ApiException.class, () -> Patches.apply(PatchType.JSON, obj("{}"),
                raw.getBytes(StandardCharsets.UTF_8), null));
        assertEquals(400, e.code());
        assertEquals(StatusReason.BAD_REQUEST, e.reason());
        assertEquals(message, e.getMessage());
    }

    @Test
    @DisplayName("more than 10000 operations is 413")
    void tooManyOperations() {
        StringBuilder ops = new StringBuilder("[");
        for (int i = 0; i <= 10_000; i++) {
            ops.append(i == 0 ? "" : ",").append("{\"op\":\"test\",\"path\":\"/a\",\"value\":1}");
        }
        ops.append(']');
        ApiException e = assertThrows(ApiException.class, () -> Patches.apply(PatchType.JSON, obj("{'a':1}"),
                ops.toString().getBytes(StandardCharsets.UTF_8), null));
        assertEquals(413, e.code());
        assertEquals("Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001",
                e.getMessage());
    }

    @Test
    @DisplayName("exactly 10000 operations are allowed")
    void tenThousandOperations() {
        StringBuilder ops = new StringBuilder("[");
        for (int i = 0; i < 10_000; i++) {
            ops.append(i == 0 ? "" : ",").append("{\"op\":\"test\",\"path\":\"/a\",\"value\":1}");
        }
        ops.append(']');
        assertEquals(obj("{'a':1}"), Patches.apply(PatchType.JSON, obj("{'a':1}"),
                ops.toString().getBytes(StandardCharsets.UTF_8), null));
    }

    @Test
    @DisplayName("a patch that leaves an array is 422 as the decode after patching words it")
    void resultNotAnObject() {
        ApiException e = assertThrows(ApiException.class,
                () -> patch("{'a':1}", "[{'op':'replace','path':'','value':[1]}]"));
        assertEquals(422, e.code());
        assertTrue(e.getMessage().startsWith(" \"\" is invalid: patch: Invalid value: \"[1]\": couldn't get version/kind"),
                e.getMessage());
    }

    @Test
    @DisplayName("the current object is never modified and the result shares nothing with it")
    void noAliasing() {
        ObjectNode current = obj("{'a':{'b':[1]}}");
        ObjectNode result = patch("{'a':{'b':[1]}}", "[{'op':'add','path':'/a/b/-','value':2}]");
        ObjectNode result2 = Patches.apply(PatchType.JSON, current, body("[{'op':'add','path':'/a/c','value':2}]"), null);
        assertEquals(obj("{'a':{'b':[1]}}"), current);
        assertEquals(obj("{'a':{'b':[1,2]}}"), result);
        ((ObjectNode) result2.get("a")).put("x", 1);
        assertEquals(obj("{'a':{'b':[1]}}"), current);
    }
}

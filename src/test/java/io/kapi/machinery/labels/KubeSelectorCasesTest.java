package io.kapi.machinery.labels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.labels.Requirement.Operator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Cases from kube's {@code labels/selector_test.go} and {@code LabelSelectorAsSelector}, with kube's messages. */
class KubeSelectorCasesTest {

    @ParameterizedTest(name = "\"{0}\" prints \"{1}\"")
    @DisplayName("Parse then String (TestSelectorParse, TestSetSelectorParser, TestToString)")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "x=a,y=b,z=c|x=a,y=b,z=c", "``|``", "x!=a,y=b|x!=a,y=b", "x=|x=", "`x= `|x=", "`x=,z= `|x=,z=",
        "`x= ,z= `|x=,z=", "!x|!x", "x>1|x>1", "x>1,z<5|x>1,z<5", "x=a,a=x|a=x,x=a", "`\rx`|x",
        "this-is-a-dns.domain.com/key-with-dash|this-is-a-dns.domain.com/key-with-dash",
        "this-is-another-dns.domain.com/key-with-dash in (so,what)|this-is-another-dns.domain.com/key-with-dash in (so,what)",
        "`0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)`|0.1.2.domain/99 notin (10.10.100.1,tick.tack.clock)",
        "`foo  in\t (abc)`|foo in (abc)", "`x notin\n (abc)`|x notin (abc)", "`x in (abc,def)`|x in (abc,def)",
        "`x in (abc,)`|x in (,abc)", "`x in ()`|x in ()", "`x notin (abc,def),bar,z in (),w`|bar,w,x notin (abc,def),z in ()",
        "`x,y in (a)`|x,y in (a)", "x==a|x==a", "`x=a,y!=b,z in (h,i,j)`|x=a,y!=b,z in (h,i,j)", "`x notin ( )`|x notin ()",
        "`x notin (, a)`|x notin (,a)", "`a `|a", "`a in (x,y,notin, z,in)`|a in (in,notin,x,y,z)", "notin=in|notin=in",
        "`x in (b,a,b)`|x in (a,b)"})
    void parseAndPrint(String selector, String printed) {
        assertEquals(printed, LabelSelector.parse(selector).toString());
        assertEquals(printed, LabelSelector.parse(printed).toString(), "the printed form parses to itself");
    }

    @ParameterizedTest(name = "\"{0}\": {1}")
    @DisplayName("malformed selectors are a 400 with labels.Parse's message")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "`x=a||y=b`|`unable to parse requirement: values[0][x]: Invalid value: \"a||y\": a valid label must be an empty string or "
            + "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character "
            + "(e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`",
        "x==a==b|found '==', expected: ',' or 'end of string'",
        "!x=a|found '=', expected: ',' or 'end of string'",
        "x<a|unable to parse requirement: values[0]: Invalid value: \"a\": for 'Gt', 'Lt' operators, the value must be an integer",
        "x,,y|found ',', expected: identifier after ','",
        ",x,y|found ',', expected: !, identifier, or 'end of string'",
        "x nott in (y)|unable to parse requirement: found 'nott', expected: in, notin, =, ==, !=, gt, lt",
        "`a in (xyz),`|found '', expected: identifier after ','",
        "a in (xyz)b notin ()|found 'b', expected: ',' or 'end of string'",
        "a in (xyz abc)|unable to parse requirement: found 'abc', expected: ',' or ')'",
        "a notin(|unable to parse requirement: found '', expected: ',', ')' or identifier",
        "a (|unable to parse requirement: found '(', expected: in, notin, =, ==, !=, gt, lt",
        "(|found '(', expected: !, identifier, or 'end of string'",
        "=v|found '=', expected: !, identifier, or 'end of string'",
        "!|unable to parse requirement: found '', expected: identifier",
        "x in (a|unable to parse requirement: found '', expected: ',' or ')'"})
    void rejects(String selector, String message) {
        ApiException e = assertThrows(ApiException.class, () -> LabelSelector.parse(selector));
        assertEquals(400, e.code());
        assertEquals(message, e.getMessage());
    }

    @Test
    @DisplayName("an invalid key is reported as labels.Parse reports it, with Go's nil path")
    void invalidKey() {
        ApiException e = assertThrows(ApiException.class, () -> LabelSelector.parse("app=web,-ltier=postgres"));
        assertEquals("unable to parse requirement: <nil>: Invalid value: \"-ltier\": name part must consist of "
                + "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character "
                + "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
                + "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')", e.getMessage());
    }

    @ParameterizedTest(name = "\"{0}\" on {1}: {2}")
    @DisplayName("Matches (TestSelectorMatches, TestRequirementSelectorMatching)")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "``|x=y|true", "x=y|x=y|true", "x=y,z=w|x=y,z=w|true", "x!=y,z!=w|x=z,z=a|true", "notin=in|notin=in|true",
        "x|x=z|true", "!x|y=z|true", "x>1|x=2|true", "x<1|x=0|true", "x=z||false", "x=y|x=z|false",
        "x=y,z=w|x=w,z=w|false", "x!=y,z!=w|x=z,z=w|false", "x|y=z|false", "!x|x=z|false", "x>1|x=0|false",
        "x<1|x=2|false", "foo=bar|foo=bar,baz=blah|true", "foo=bar,baz=blah|foo=bar,baz=blah|true",
        "foo=blah|foo=bar,baz=blah|false", "foo=bar,foobar=bar,baz=blah|foo=bar,baz=blah|false",
        "x in (foo),y notin (alpha)|x=foo,y=baz|true", "x in (foo),y in (alpha)|x=foo,y=baz|false",
        "`x notin (),y`|y=|true", "!x,y|y=|true", "`x notin (),!y`|y=|false", "x in ()|y=baz|false",
        "z>1|z=2|true", "z>1|z=v2|false", "x in (a,b,c,d,e,f,g,h,i,j)|x=j|true", "x notin (a,b,c,d,e,f,g,h,i,j)|x=j|false"})
    void matches(String selector, String labels, boolean expected) {
        assertEquals(expected, LabelSelector.parse(selector).matches(labels(labels)));
    }

    @ParameterizedTest(name = "{0} {1} {2}: {3}")
    @DisplayName("NewRequirement's rules (TestRequirementConstructor)")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "x|IN||false", "x|NOT_IN||false", "x|IN|foo|true", "x|NOT_IN|foo|true", "x|EXISTS||true",
        "x|DOES_NOT_EXIST||true", "1foo|IN|bar|true", "1234|IN|bar|true", "y|GREATER_THAN|1|true",
        "z|LESS_THAN|6|true", "foo|GREATER_THAN|bar|false", "barz|LESS_THAN|blah|false", "x|EXISTS|a|false",
        "x|EQUALS|a,b|false"})
    void requirement(String key, Operator op, String values, boolean valid) {
        List<String> list = values == null ? List.of() : List.of(values.split(","));
        if (valid) {
            assertEquals(key, Requirement.validated(key, op, list, null).key());
        } else {
            assertThrows(IllegalArgumentException.class, () -> Requirement.validated(key, op, list, null));
        }
        assertThrows(IllegalArgumentException.class,
                () -> Requirement.validated("a".repeat(254), Operator.EXISTS, List.of(), null));
    }

    @Test
    @DisplayName("LabelSelectorAsSelector: missing is nothing, empty everything, the rest sorted by key")
    void fromObject() {
        assertSame(LabelSelector.NOTHING, LabelSelector.fromObject(null));
        assertSame(LabelSelector.NOTHING, LabelSelector.fromObject(json("null")));
        assertFalse(LabelSelector.NOTHING.matches(Map.of()));
        assertFalse(LabelSelector.NOTHING.isEverything());
        assertTrue(LabelSelector.fromObject(json("{}")).isEverything());
        assertTrue(LabelSelector.fromObject(json("{'matchLabels':{},'matchExpressions':[]}")).matches(Map.of("a", "b")));
        LabelSelector s = LabelSelector.fromObject(json("{'matchLabels':{'z':'1','a':'2'},'matchExpressions':["
                + "{'key':'m','operator':'NotIn','values':['y','x']},{'key':'b','operator':'Exists'},"
                + "{'key':'c','operator':'DoesNotExist'},{'key':'d','operator':'In','values':['q']}]}"));
        assertEquals("a=2,b,!c,d in (q),m notin (x,y),z=1", s.toString());
        assertTrue(s.matches(Map.of("a", "2", "z", "1", "b", "", "d", "q")));
        assertFalse(s.matches(Map.of("a", "2", "z", "1", "b", "", "d", "q", "m", "x")));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @DisplayName("LabelSelectorAsSelector refuses what NewRequirement refuses, with kube's messages")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "{'matchExpressions':[{'key':'a','operator':'Gt','values':['1']}]}|\"Gt\" is not a valid label selector operator",
        "{'matchExpressions':[{'key':'a','operator':'In'}]}|values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
        "{'matchExpressions':[{'key':'a','operator':'Exists','values':['x']}]}|values: Invalid value: []string{\"x\"}: values set must be empty for exists and does not exist",
        "{'matchLabels':{'a':'-x'}}|values[0][a]: Invalid value: \"-x\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"})
    void fromObjectRejects(String selector, String message) {
        assertEquals(message, assertThrows(IllegalArgumentException.class,
                () -> LabelSelector.fromObject(json(selector))).getMessage());
    }

    @Test
    @DisplayName("SelectorFromSet: every label equal; an empty set selects everything (TestSetMatches)")
    void fromSet() {
        Map<String, String> labels = Map.of("foo", "bar", "baz", "blah");
        assertTrue(LabelSelector.fromSet(Map.of()).matches(labels));
        assertTrue(LabelSelector.fromSet(Map.of()).isEverything());
        assertTrue(LabelSelector.fromSet(Map.of("foo", "bar")).matches(labels));
        assertTrue(LabelSelector.fromSet(labels).matches(labels));
        assertFalse(LabelSelector.fromSet(Map.of("foo", "bar", "x", "y")).matches(labels));
        assertEquals("baz=blah,foo=bar", LabelSelector.fromSet(json("{'foo':'bar','baz':'blah'}")).toString());
    }

    @ParameterizedTest
    @DisplayName("blank selectors select everything")
    @ValueSource(strings = {"", " ", "\t\n"})
    void blank(String selector) {
        assertTrue(LabelSelector.parse(selector).isEverything());
    }

    private static Map<String, String> labels(String text) {
        Map<String, String> labels = new LinkedHashMap<>();
        if (text != null) {
            for (String pair : text.split(",")) {
                int eq = pair.indexOf('=');
                labels.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        return labels;
    }

    private static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text.replace('\'', '"'));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}

package io.kapi.machinery.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.kapi.machinery.GoJson;
import io.kapi.machinery.GoStrings;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Value helpers with structured-merge-diff's semantics: numeric equality across representations,
 * its total order of values (float &lt; int &lt; string &lt; bool &lt; list &lt; map &lt; null) and Go's JSON
 * encoding (sorted object keys, HTML characters escaped) used inside {@code k:} and {@code v:} keys.
 */
final class Values {

    private Values() {
    }

    /** The value as a path element holds it: integers as longs, other numbers as doubles. */
    static JsonNode canonical(JsonNode v) {
        if (v == null || !v.isNumber()) {
            return v;
        }
        if (v.isIntegralNumber()) {
            return v.canConvertToLong() ? LongNode.valueOf(v.longValue()) : BigIntegerNode.valueOf(v.bigIntegerValue());
        }
        double d = v.doubleValue();
        if (d == Math.rint(d) && !Double.isInfinite(d) && Math.abs(d) < 1e18 && v.decimalValue().scale() <= 0) {
            return LongNode.valueOf((long) d);
        }
        return DoubleNode.valueOf(d);
    }

    /** Deep equality that compares numbers by value. Missing (Java null) equals only missing. */
    static boolean equal(JsonNode a, JsonNode b) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null) {
            return false;
        }
        if (a instanceof TextNode ta) { // the common leaf: a fast path
            return b instanceof TextNode tb && ta.textValue().equals(tb.textValue());
        }
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        if (a.getNodeType() != b.getNodeType()) {
            return false;
        }
        if (a.isObject()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (Map.Entry<String, JsonNode> e : a.properties()) {
                if (!equal(e.getValue(), b.get(e.getKey()))) {
                    return false;
                }
            }
            return true;
        }
        if (a.isArray()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (int i = 0; i < a.size(); i++) {
                if (!equal(a.get(i), b.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }

    /** structured-merge-diff's total order of values. */
    static int compare(JsonNode a, JsonNode b) {
        if (a instanceof TextNode ta && b instanceof TextNode tb) { // key values are mostly strings
            return ta.textValue().compareTo(tb.textValue());
        }
        if (a instanceof LongNode la && b instanceof LongNode lb) {
            return Long.compare(la.longValue(), lb.longValue());
        }
        int ra = rank(a);
        int rb = rank(b);
        boolean numA = ra <= 1;
        boolean numB = rb <= 1;
        if (numA && numB) {
            if (ra == 1 && rb == 1) {
                return a.bigIntegerValue().compareTo(b.bigIntegerValue());
            }
            int c = a.decimalValue().compareTo(b.decimalValue());
            if (c != 0 || ra == rb) {
                return c;
            }
            return Integer.compare(ra, rb);
        }
        if (ra != rb) {
            return Integer.compare(ra, rb);
        }
        return switch (ra) {
            case 2 -> a.textValue().compareTo(b.textValue());
            case 3 -> Boolean.compare(a.booleanValue(), b.booleanValue());
            case 4 -> compareLists(a, b);
            case 5 -> compareMaps(a, b);
            default -> 0;
        };
    }

    private static int rank(JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return 6;
        }
        if (v.isNumber()) {
            return v.isIntegralNumber() ? 1 : 0;
        }
        if (v.isTextual()) {
            return 2;
        }
        if (v.isBoolean()) {
            return 3;
        }
        return v.isArray() ? 4 : 5;
    }

    private static int compareLists(JsonNode a, JsonNode b) {
        for (int i = 0; ; i++) {
            if (i >= a.size() && i >= b.size()) {
                return 0;
            }
            if (i >= a.size()) {
                return -1;
            }
            if (i >= b.size()) {
                return 1;
            }
            int c = compare(a.get(i), b.get(i));
            if (c != 0) {
                return c;
            }
        }
    }

    private static int compareMaps(JsonNode a, JsonNode b) {
        List<String> ka = sortedKeys(a);
        List<String> kb = sortedKeys(b);
        for (int i = 0; ; i++) {
            if (i >= ka.size() && i >= kb.size()) {
                return 0;
            }
            if (i >= ka.size()) {
                return -1;
            }
            if (i >= kb.size()) {
                return 1;
            }
            int c = ka.get(i).compareTo(kb.get(i));
            if (c != 0) {
                return c;
            }
            c = compare(a.get(ka.get(i)), b.get(kb.get(i)));
            if (c != 0) {
                return c;
            }
        }
    }

    static List<String> sortedKeys(JsonNode obj) {
        List<String> keys = new ArrayList<>();
        obj.fieldNames().forEachRemaining(keys::add);
        keys.sort(null);
        return keys;
    }

    /** Go's {@code encoding/json} output for a value: object keys sorted, {@code <>&} escaped. */
    static String goJson(JsonNode v) {
        StringBuilder b = new StringBuilder();
        writeGoJson(v, b);
        return b.toString();
    }

    static void writeGoJson(JsonNode v, StringBuilder b) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            b.append("null");
        } else if (v.isTextual()) {
            GoJson.appendString(b, v.textValue());
        } else if (v.isIntegralNumber()) {
            b.append(v.bigIntegerValue());
        } else if (v.isNumber()) {
            b.append(goFloat(v.doubleValue()));
        } else if (v.isBoolean()) {
            b.append(v.booleanValue());
        } else if (v.isArray()) {
            b.append('[');
            for (int i = 0; i < v.size(); i++) {
                if (i > 0) {
                    b.append(',');
                }
                writeGoJson(v.get(i), b);
            }
            b.append(']');
        } else {
            b.append('{');
            boolean first = true;
            for (String k : sortedKeys(v)) {
                if (!first) {
                    b.append(',');
                }
                first = false;
                GoJson.appendString(b, k);
                b.append(':');
                writeGoJson(v.get(k), b);
            }
            b.append('}');
        }
    }

    static String goFloat(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 1e21) {
            return new java.math.BigDecimal(d).toPlainString();
        }
        String s = Double.toString(d);
        if (s.contains("E")) {
            String[] parts = s.split("E");
            String exp = parts[1].startsWith("-") ? parts[1] : "+" + parts[1];
            if (exp.length() == 2) {
                exp = exp.charAt(0) + "0" + exp.charAt(1);
            }
            return parts[0].replaceAll("\\.0$", "") + "e" + exp;
        }
        return s;
    }

    /** A value as structured-merge-diff prints it inside a path: strings quoted, others as JSON. */
    static String pathString(JsonNode v) {
        if (v != null && v.isTextual()) {
            return GoStrings.quote(v.textValue());
        }
        return goJson(v);
    }
}

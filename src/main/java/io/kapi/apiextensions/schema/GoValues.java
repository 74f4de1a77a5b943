package io.kapi.apiextensions.schema;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoStrings;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * JSON values printed as Go prints the {@code interface{}} values of decoded objects in kube's field
 * errors: strings with {@code %q}, numbers and booleans with {@code %v}, maps and slices with
 * {@code %#v} ({@code map[string]interface {}{"a":1}}, {@code []interface {}{"x"}}).
 */
public final class GoValues {

    private GoValues() {
    }

    /** A field error's value as {@code field.Error.ErrorBody} prints it. */
    public static String errorValue(JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return "null";
        }
        return v.isContainerNode() ? goSyntax(v) : plain(v);
    }

    /** {@code %v} of a scalar, {@code %q} for strings. */
    private static String plain(JsonNode v) {
        if (v.isTextual()) {
            return GoStrings.quote(v.asText());
        }
        if (v.isBoolean()) {
            return Boolean.toString(v.asBoolean());
        }
        if (v.isIntegralNumber()) {
            return v.bigIntegerValue().toString();
        }
        return v.isNumber() ? number(v.decimalValue()) : v.asText();
    }

    /** Go's {@code %#v} of a decoded JSON value. */
    static String goSyntax(JsonNode v) {
        if (v == null || v.isNull()) {
            return "interface {}(nil)";
        }
        if (v.isObject()) {
            Map<String, JsonNode> sorted = new TreeMap<>();
            v.properties().forEach(e -> sorted.put(e.getKey(), e.getValue()));
            List<String> entries = new ArrayList<>();
            sorted.forEach((k, x) -> entries.add(GoStrings.quote(k) + ":" + goSyntax(x)));
            return "map[string]interface {}{" + String.join(", ", entries) + "}";
        }
        if (v.isArray()) {
            List<String> items = new ArrayList<>();
            v.forEach(x -> items.add(goSyntax(x)));
            return "[]interface {}{" + String.join(", ", items) + "}";
        }
        return plain(v);
    }

    /** Go's {@code %v} of a float64: shortest digits, exponent form from 1e21 and below 1e-4. */
    public static String number(BigDecimal value) {
        double d = value.doubleValue();
        if (Double.isInfinite(d)) {
            return d > 0 ? "+Inf" : "-Inf";
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e21) {
            return Long.toString((long) d);
        }
        BigDecimal shortest = new BigDecimal(Double.toString(d)).stripTrailingZeros();
        int exponent = shortest.precision() - shortest.scale() - 1;
        if (exponent < -4 || exponent >= 21) {
            String digits = shortest.unscaledValue().abs().toString();
            String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            return (d < 0 ? "-" : "") + mantissa + "e" + (exponent < 0 ? "-" : "+")
                    + String.format("%02d", Math.abs(exponent));
        }
        return shortest.toPlainString();
    }
}

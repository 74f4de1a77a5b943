package io.kapi.endpoint.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.Json;
import io.kapi.registry.table.Column;
import io.kapi.registry.table.Doc;
import io.kapi.registry.table.KindPrinter;
import java.lang.System.Logger.Level;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The table of a custom resource, from its CRD version's {@code additionalPrinterColumns}, as
 * apiextensions-apiserver's table convertor: a NAME column, then one column per printer column whose cell is
 * the first value its JSONPath selects (null when none), typed by the column's type. A CRD without printer
 * columns gets one AGE column. A column whose JSONPath cannot be parsed ends the list, as kube.
 */
final class CustomColumns {

    private static final System.Logger LOG = System.getLogger(CustomColumns.class.getName());

    private CustomColumns() {
    }

    /** The printer of {@code additionalPrinterColumns} (null or empty for the default AGE column). */
    static KindPrinter of(JsonNode printerColumns) {
        if (printerColumns == null || !printerColumns.isArray() || printerColumns.isEmpty()) {
            JsonPath created = JsonPath.parse(".metadata.creationTimestamp");
            return KindPrinter.of(Columns.nameColumn(), new Column("Age", "date", "", 0, Doc.meta("creationTimestamp"),
                    (o, now) -> cell("date", created.find(o), now)));
        }
        List<Column> cols = new ArrayList<>();
        cols.add(Columns.nameColumn());
        for (JsonNode pc : printerColumns) {
            String jsonPath = GoValues.text(pc, "jsonPath");
            JsonPath path;
            try {
                path = JsonPath.parse(jsonPath);
            } catch (IllegalArgumentException e) {
                LOG.log(Level.DEBUG, "invalid printer column {0}, printing the columns before it: {1}",
                        jsonPath, e.getMessage());
                break;
            }
            String type = GoValues.text(pc, "type");
            Doc doc = Doc.text(GoValues.textOr(pc, "Custom resource definition column (in JSONPath format): " + jsonPath,
                    "description"));
            cols.add(new Column(GoValues.text(pc, "name"), type, GoValues.text(pc, "format"), (int) GoValues.integer(pc, "priority"), doc,
                    (o, now) -> cell(type, path.find(o), now)));
        }
        return new KindPrinter(List.copyOf(cols), null);
    }

    private static Object cell(String type, List<JsonNode> results, Instant now) {
        if (results.isEmpty()) {
            return null;
        }
        JsonNode v = results.getFirst();
        if (v.isNull()) {
            return type.equals("string") ? "<no value>" : null; // Go's text/template prints a nil value so
        }
        return switch (type) {
            case "string" -> text(v);
            case "integer" -> v.isNumber() ? (Object) v.longValue() : null;
            case "number" -> v.isNumber() ? number(v) : null;
            case "boolean" -> v.isBoolean() ? (Object) v.booleanValue() : null;
            case "date" -> v.isTextual() ? date(v.asText(), now) : null;
            default -> null;
        };
    }

    /** A JSON number as Go's float64 would print in JSON: integral values without a fraction. */
    private static Object number(JsonNode v) {
        double d = v.doubleValue();
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? (Object) (long) d : (Object) d;
    }

    private static String date(String s, Instant now) {
        if (s.isEmpty()) {
            return HumanDuration.UNKNOWN;
        }
        try {
            return HumanDuration.since(OffsetDateTime.parse(s).toInstant(), now);
        } catch (DateTimeParseException e) {
            return "<invalid>";
        }
    }

    /** client-go JSONPath's text of a value: strings raw, objects and arrays as compact JSON with sorted keys. */
    static String text(JsonNode v) {
        if (v.isTextual()) {
            return v.asText();
        }
        if (v.isContainerNode()) {
            try {
                return Json.MAPPER.writeValueAsString(sorted(v));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                return null;
            }
        }
        if (v.isIntegralNumber()) {
            return v.bigIntegerValue().toString();
        }
        if (v.isNumber()) {
            return goFloat(v.doubleValue());
        }
        return v.asText();
    }

    private static JsonNode sorted(JsonNode v) {
        if (v.isObject()) {
            Map<String, JsonNode> m = new TreeMap<>();
            v.properties().forEach(e -> m.put(e.getKey(), sorted(e.getValue())));
            ObjectNode o = Json.object();
            m.forEach(o::set);
            return o;
        }
        if (v.isArray()) {
            var a = Json.MAPPER.createArrayNode();
            v.forEach(e -> a.add(sorted(e)));
            return a;
        }
        return v;
    }

    /** Go's {@code %v} of a float64: shortest digits, exponent form below 1e-4 and from 1e6 ({@code strconv 'g', -1}). */
    static String goFloat(double d) {
        if (d == 0) {
            return "0";
        }
        BigDecimal bd = new BigDecimal(Double.toString(d)).stripTrailingZeros();
        int exp = bd.precision() - bd.scale() - 1;
        if (exp < -4 || exp >= 6) {
            String digits = bd.unscaledValue().abs().toString();
            String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            String e = String.format("%02d", Math.abs(exp));
            return (d < 0 ? "-" : "") + mantissa + "e" + (exp < 0 ? "-" : "+") + e;
        }
        return bd.toPlainString();
    }
}

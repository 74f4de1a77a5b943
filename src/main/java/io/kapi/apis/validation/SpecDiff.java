package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoValues;
import java.util.TreeSet;

/**
 * The diff kube appends to "may not change" messages. kube prints {@code cmp.Diff} of its internal Go structs;
 * this prints the same shape (type header, {@code -}/{@code +} lines per changed top-level field, Go field
 * names) with values as compact JSON, which is as close as a schema-less server gets.
 */
final class SpecDiff {

    private SpecDiff() {
    }

    static String diff(String type, JsonNode before, JsonNode after) {
        StringBuilder b = new StringBuilder("  ").append(type).append("{\n");
        TreeSet<String> names = new TreeSet<>();
        before.fieldNames().forEachRemaining(names::add);
        after.fieldNames().forEachRemaining(names::add);
        int same = 0;
        for (String name : names) {
            JsonNode x = before.get(name);
            JsonNode y = after.get(name);
            if (GoValues.same(x, y)) {
                same++;
                continue;
            }
            if (same > 0) {
                b.append("  \t... // ").append(same).append(" identical fields\n");
                same = 0;
            }
            String go = Character.toUpperCase(name.charAt(0)) + name.substring(1);
            if (x != null && !x.isNull()) {
                b.append("- \t").append(go).append(": ").append(x).append(",\n");
            }
            if (y != null && !y.isNull()) {
                b.append("+ \t").append(go).append(": ").append(y).append(",\n");
            }
        }
        if (same > 0) {
            b.append("  \t... // ").append(same).append(" identical fields\n");
        }
        return b.append("  }\n").toString();
    }
}

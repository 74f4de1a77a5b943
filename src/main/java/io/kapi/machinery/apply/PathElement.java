package io.kapi.machinery.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoJson;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * One step of a field path, as structured-merge-diff names it: a field of a map or struct, a list
 * item picked by its key fields, a set item picked by its value, or (rarely) a list item by index.
 * Elements are totally ordered as structured-merge-diff orders them (fields, then keys, then values,
 * then indexes), which is the order of {@code fieldsV1} output.
 */
sealed interface PathElement extends Comparable<PathElement> {

    /** {@code f:name} / {@code .name}. */
    record Field(String name) implements PathElement {
    }

    /** {@code k:{"name":"x"}} / {@code [name="x"]}; fields sorted by name, values canonical. */
    record Key(List<Map.Entry<String, JsonNode>> fields) implements PathElement {
        public Key {
            List<Map.Entry<String, JsonNode>> copy = new ArrayList<>();
            for (Map.Entry<String, JsonNode> e : fields) {
                copy.add(Map.entry(e.getKey(), Values.canonical(e.getValue())));
            }
            copy.sort(Map.Entry.comparingByKey());
            fields = List.copyOf(copy);
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Key other) || other.fields.size() != fields.size()) {
                return false;
            }
            for (int i = 0; i < fields.size(); i++) {
                if (!fields.get(i).getKey().equals(other.fields.get(i).getKey())
                        || Values.compare(fields.get(i).getValue(), other.fields.get(i).getValue()) != 0) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public int hashCode() {
            int h = 1;
            for (Map.Entry<String, JsonNode> e : fields) {
                h = 31 * h + e.getKey().hashCode();
                JsonNode v = e.getValue();
                h = 31 * h + (v == null || v.isNull() ? 0 : v.isNumber() ? Double.hashCode(v.doubleValue()) : v.hashCode());
            }
            return h;
        }
    }

    /** {@code v:"x"} / {@code [="x"]}: an item of a set. */
    record Value(JsonNode value) implements PathElement {
        public Value {
            value = Values.canonical(value);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Value other && Values.compare(value, other.value) == 0;
        }

        @Override
        public int hashCode() {
            return value == null || value.isNull() ? 0 : value.isNumber() ? Double.hashCode(value.doubleValue()) : value.hashCode();
        }
    }

    /** {@code i:3} / {@code [3]}. */
    record Index(int index) implements PathElement {
    }

    Comparator<PathElement> ORDER = PathElement::compareTo;

    @Override
    default int compareTo(PathElement o) {
        if (this instanceof Field f && o instanceof Field g) { // the common case: a fast path
            return f.name().compareTo(g.name());
        }
        int c = Integer.compare(rank(this), rank(o));
        if (c != 0) {
            return c;
        }
        return switch (this) {
            case Field f -> f.name().compareTo(((Field) o).name());
            case Key k -> compareKeys(k.fields(), ((Key) o).fields());
            case Value v -> Values.compare(v.value(), ((Value) o).value());
            case Index i -> Integer.compare(i.index(), ((Index) o).index());
        };
    }

    private static int rank(PathElement pe) {
        return switch (pe) {
            case Field f -> 0;
            case Key k -> 1;
            case Value v -> 2;
            case Index i -> 3;
        };
    }

    private static int compareKeys(List<Map.Entry<String, JsonNode>> a, List<Map.Entry<String, JsonNode>> b) {
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
            int c = a.get(i).getKey().compareTo(b.get(i).getKey());
            if (c != 0) {
                return c;
            }
            c = Values.compare(a.get(i).getValue(), b.get(i).getValue());
            if (c != 0) {
                return c;
            }
        }
    }

    /** The key of this element in a {@code fieldsV1} object. */
    default String fieldsV1Key() {
        return switch (this) {
            case Field f -> "f:" + f.name();
            case Key k -> {
                StringBuilder b = new StringBuilder("k:{");
                boolean first = true;
                for (Map.Entry<String, JsonNode> e : k.fields()) {
                    if (!first) {
                        b.append(',');
                    }
                    first = false;
                    GoJson.appendString(b, e.getKey());
                    b.append(':');
                    Values.writeGoJson(e.getValue(), b);
                }
                yield b.append('}').toString();
            }
            case Value v -> "v:" + Values.goJson(v.value());
            case Index i -> "i:" + i.index();
        };
    }

    /** The element as structured-merge-diff prints it in a path, e.g. {@code .spec} or {@code [name="x"]}. */
    default String pathString() {
        return switch (this) {
            case Field f -> "." + f.name();
            case Key k -> {
                StringBuilder b = new StringBuilder("[");
                boolean first = true;
                for (Map.Entry<String, JsonNode> e : k.fields()) {
                    if (!first) {
                        b.append(',');
                    }
                    first = false;
                    b.append(e.getKey()).append('=').append(Values.pathString(e.getValue()));
                }
                yield b.append(']').toString();
            }
            case Value v -> "[=" + Values.pathString(v.value()) + "]";
            case Index i -> "[" + i.index() + "]";
        };
    }

    /** Parses a {@code fieldsV1} key other than {@code "."}. */
    static PathElement parseFieldsV1Key(String key) {
        if (key.length() < 2 || key.charAt(1) != ':') {
            throw new IllegalArgumentException("unexpected key in fieldsV1: " + key);
        }
        String rest = key.substring(2);
        try {
            return switch (key.charAt(0)) {
                case 'f' -> new Field(rest);
                case 'k' -> {
                    JsonNode obj = Json.MAPPER.readTree(rest);
                    if (!(obj instanceof ObjectNode o)) {
                        throw new IllegalArgumentException("key is not an object: " + key);
                    }
                    List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
                    o.properties().forEach(e -> fields.add(Map.entry(e.getKey(), e.getValue())));
                    yield new Key(fields);
                }
                case 'v' -> new Value(Json.MAPPER.readTree(rest));
                case 'i' -> new Index(Integer.parseInt(rest));
                default -> throw new IllegalArgumentException("unexpected key in fieldsV1: " + key);
            };
        } catch (IOException e) {
            throw new IllegalArgumentException("invalid key in fieldsV1: " + key, e);
        }
    }
}

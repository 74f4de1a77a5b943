package io.kapi.machinery.apply;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Names the items of associative lists: by their key fields, or by value in a set. */
final class ListItems {

    private ListItems() {
    }

    /** The element naming {@code item}, worded as structured-merge-diff when it cannot. */
    static PathElement element(SchemaType.ListType list, JsonNode item) throws InvalidItem {
        if (list.keys().isEmpty()) {
            if (item == null || item.isNull()) {
                throw new InvalidItem("set elements must not be nil");
            }
            if (item.isObject()) {
                throw new InvalidItem("associative list without keys has an element that's a map type");
            }
            if (item.isArray()) {
                throw new InvalidItem("not supported: associative list with lists as elements");
            }
            return new PathElement.Value(item);
        }
        if (item == null || item.isNull()) {
            throw new InvalidItem("associative list with keys may not have a null element");
        }
        if (!item.isObject()) {
            throw new InvalidItem("associative list with keys may not have non-map elements");
        }
        List<Map.Entry<String, JsonNode>> fields = new ArrayList<>(list.keys().size());
        for (String key : list.keys()) {
            JsonNode v = item.get(key);
            if (v == null) {
                v = list.keyDefaults().get(key);
            }
            if (v == null) {
                throw new InvalidItem(("associative list with keys has an element that omits key field \"%s\" "
                        + "(and doesn't have default value)").formatted(key));
            }
            fields.add(Map.entry(key, v));
        }
        return new PathElement.Key(fields);
    }

    /**
     * The items of a list by element, first occurrence of each; items that cannot be named, and
     * repeated ones, are indexed by position so that they are carried along untouched.
     */
    static LinkedHashMap<PathElement, JsonNode> index(SchemaType.ListType list, JsonNode array) {
        LinkedHashMap<PathElement, JsonNode> out = new LinkedHashMap<>();
        if (array == null || !array.isArray()) {
            return out;
        }
        for (int i = 0; i < array.size(); i++) {
            JsonNode item = array.get(i);
            PathElement pe;
            try {
                pe = element(list, item);
            } catch (InvalidItem e) {
                pe = new PathElement.Index(i);
            }
            if (out.containsKey(pe)) {
                pe = new PathElement.Index(i);
            }
            out.put(pe, item);
        }
        return out;
    }

    /** An item an associative list cannot hold. */
    static final class InvalidItem extends Exception {
        InvalidItem(String message) {
            super(message, null, false, false);
        }
    }
}

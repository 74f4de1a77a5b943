package io.kapi.machinery.apply;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The shape of a value as structured-merge-diff sees it: a scalar, a list (atomic, or associative:
 * a set of scalars or a map keyed by some fields of its items), a map (a struct with named fields
 * and/or a map of one element type; atomic or granular), or untyped (shape deduced from the value:
 * maps granular, lists atomic).
 */
sealed interface SchemaType {

    SchemaType SCALAR = new Scalar();
    SchemaType UNTYPED = new Untyped();

    /** A leaf value. */
    record Scalar() implements SchemaType {
    }

    /** A value whose shape is read off the value itself. */
    record Untyped() implements SchemaType {
    }

    /**
     * A list. Associative lists without keys are sets of scalars; with keys, maps of objects keyed by
     * those fields (a missing key field takes its schema default, as {@code protocol: TCP} on ports).
     */
    final class ListType implements SchemaType {
        private final boolean atomic;
        private final List<String> keys;
        private final Map<String, JsonNode> keyDefaults;
        private final SchemaType elementType;

        ListType(boolean atomic, List<String> keys, Map<String, JsonNode> keyDefaults, SchemaType elementType) {
            this.atomic = atomic;
            this.keys = List.copyOf(keys);
            this.keyDefaults = Map.copyOf(keyDefaults);
            this.elementType = elementType;
        }

        boolean atomic() {
            return atomic;
        }

        List<String> keys() {
            return keys;
        }

        Map<String, JsonNode> keyDefaults() {
            return keyDefaults;
        }

        SchemaType elementType() {
            return elementType;
        }
    }

    /**
     * A struct (named fields) or a map (one element type), atomic or granular. The field table is
     * shared between variants and filled after construction, so recursive definitions resolve.
     *
     * <p>{@code implicit} holds, per field, the value Go's encoding of an empty typed object shows
     * for it ({@code {}} for a non-pointer struct, null for a required slice or pointer): the compare
     * treats an absent field as that value, so update tracking records the paths kube records.
     */
    final class MapType implements SchemaType {
        private final Map<String, SchemaType> fields;
        private final Map<String, JsonNode> implicit;
        private final SchemaType elementType;
        private final boolean atomic;

        MapType(Map<String, SchemaType> fields, Map<String, JsonNode> implicit, SchemaType elementType, boolean atomic) {
            this.fields = fields;
            this.implicit = implicit;
            this.elementType = elementType;
            this.atomic = atomic;
        }

        /** A struct; {@code preserveUnknown} lets it hold undeclared, untyped fields. */
        static MapType struct(boolean atomic, boolean preserveUnknown) {
            return new MapType(new HashMap<>(), new HashMap<>(), preserveUnknown ? UNTYPED : null, atomic);
        }

        MapType withAtomic(boolean atomic) {
            return atomic == this.atomic ? this : new MapType(fields, implicit, elementType, atomic);
        }

        /** The declared type of field {@code name}, or null when the struct does not declare it. */
        SchemaType field(String name) {
            return fields.get(name);
        }

        /** The type of an entry: the declared field, else the element type, else null (undeclared). */
        SchemaType entryType(String name) {
            SchemaType t = fields.get(name);
            return t != null ? t : elementType;
        }

        Map<String, SchemaType> fields() {
            return fields;
        }

        Map<String, JsonNode> implicit() {
            return implicit;
        }

        SchemaType elementType() {
            return elementType;
        }

        boolean atomic() {
            return atomic;
        }
    }
}

package io.kapi.machinery.apply;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The set of fields a value sets (structured-merge-diff's {@code ToFieldSet}): every scalar, atomic
 * list or map, list item, map entry that is not a declared struct field, and every null or empty map.
 * Struct fields holding other fields are not members themselves.
 *
 * <p>Strict mode is for applied configurations: it reports fields the schema does not declare,
 * duplicate list items and items that cannot be keyed, worded as structured-merge-diff words them.
 */
final class ToFieldSet {

    private final boolean strict;
    private final List<String> errors = new ArrayList<>();
    private final List<PathElement> path = new ArrayList<>();

    private ToFieldSet(boolean strict) {
        this.strict = strict;
    }

    /** The fields of a stored object; undeclared fields count as untyped. */
    static FieldSet of(SchemaType type, JsonNode value) {
        ToFieldSet w = new ToFieldSet(false);
        FieldSet.Builder root = new FieldSet.Builder();
        w.walkRoot(type, value, root);
        return root.build();
    }

    /**
     * The fields of an applied configuration.
     *
     * @throws TypedErrors when the value does not fit the schema
     */
    static FieldSet ofApplied(SchemaType type, JsonNode value) throws TypedErrors {
        ToFieldSet w = new ToFieldSet(true);
        FieldSet.Builder root = new FieldSet.Builder();
        w.walkRoot(type, value, root);
        if (!w.errors.isEmpty()) {
            throw new TypedErrors(w.errors);
        }
        return root.build();
    }

    private void walkRoot(SchemaType type, JsonNode value, FieldSet.Builder root) {
        if (value != null && value.isObject()) {
            SchemaType t = type instanceof SchemaType.MapType ? type : SchemaType.UNTYPED;
            visitMap(t, value, root);
        }
    }

    /** Walks {@code value} at element {@code self} of {@code level}; returns whether it is a leaf. */
    private void walk(SchemaType type, JsonNode value, FieldSet.Builder level, PathElement self) {
        switch (type) {
            case SchemaType.Scalar s -> level.member(self);
            case SchemaType.Untyped u -> {
                if (value != null && value.isObject()) {
                    visitMap(SchemaType.UNTYPED, value, level.child(self));
                } else {
                    level.member(self);
                }
            }
            case SchemaType.ListType lt -> {
                if (lt.atomic()) {
                    level.member(self);
                } else if (value != null && value.isArray()) {
                    visitList(lt, value, level.child(self));
                } else if (value != null && !value.isNull()) {
                    error("expected list, got " + value.getNodeType().name().toLowerCase());
                }
            }
            case SchemaType.MapType mt -> {
                if (mt.atomic()) {
                    level.member(self);
                } else if (value != null && value.isObject()) {
                    visitMap(mt, value, level.child(self));
                } else if (value != null && !value.isNull()) {
                    error("expected map, got " + value.getNodeType().name().toLowerCase());
                }
            }
        }
    }

    private void visitList(SchemaType.ListType lt, JsonNode array, FieldSet.Builder level) {
        Set<PathElement> seen = new HashSet<>();
        for (JsonNode item : array) {
            PathElement pe;
            try {
                pe = ListItems.element(lt, item);
            } catch (ListItems.InvalidItem e) {
                if (strict) {
                    error(e.getMessage());
                }
                continue;
            }
            if (!seen.add(pe)) {
                if (strict) {
                    error("duplicate entries for key " + pe.pathString());
                }
                continue;
            }
            path.add(pe);
            walk(lt.elementType(), item, level, pe);
            path.removeLast();
            level.member(pe);
        }
    }

    private void visitMap(SchemaType type, JsonNode obj, FieldSet.Builder level) {
        SchemaType.MapType mt = type instanceof SchemaType.MapType m ? m : null;
        for (Map.Entry<String, JsonNode> e : obj.properties()) {
            PathElement pe = new PathElement.Field(e.getKey());
            path.add(pe);
            SchemaType child = mt == null ? SchemaType.UNTYPED : mt.entryType(e.getKey());
            boolean declared = mt != null && mt.field(e.getKey()) != null;
            if (child == null) {
                if (strict) {
                    error("field not declared in schema");
                    path.removeLast();
                    continue;
                }
                child = SchemaType.UNTYPED;
            }
            JsonNode v = e.getValue();
            walk(child, v, level, pe);
            if (v.isNull() || v.isObject() && v.isEmpty() || !declared) {
                level.member(pe);
            }
            path.removeLast();
        }
    }

    private void error(String message) {
        errors.add(FieldSet.pathString(path) + ": " + message);
    }

    /** A value that does not fit its schema, with structured-merge-diff's messages. */
    static final class TypedErrors extends Exception {
        TypedErrors(List<String> errors) {
            super(errors.size() == 1 ? errors.getFirst() : "errors:\n  " + String.join("\n  ", errors), null, false,
                    false);
        }
    }
}

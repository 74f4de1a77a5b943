package io.kapi.apiextensions.schema;

import java.util.Optional;

/**
 * The field paths a CRD names inside its schema ({@code selectableFields[].jsonPath}, the
 * {@code fieldPath} of a validation rule), resolved as kube's {@code cel.ValidFieldPath} does: a
 * sequence of {@code .name} and {@code ['name']} steps (and {@code [n]} list indexes where allowed),
 * each naming a property, or a key of a map ({@code additionalProperties}).
 */
public final class FieldPaths {

    /** A resolved path: the schema it points to and its first step ({@code metadata}, {@code spec}, ...). */
    public record Resolved(StructuralSchema schema, String root) {
    }

    private FieldPaths() {
    }

    /**
     * Resolves {@code path} from {@code schema}.
     *
     * @return the schema found, or an error worded as kube's ({@code does not refer to a valid field})
     */
    public static Resolved resolve(String path, StructuralSchema schema, boolean allowIndexes) {
        StructuralSchema current = schema;
        String root = null;
        int i = 0;
        if (path.isEmpty()) {
            throw new IllegalArgumentException("must be non-empty");
        }
        while (i < path.length()) {
            char c = path.charAt(i);
            String name;
            if (c == '.') {
                int end = i + 1;
                while (end < path.length() && path.charAt(end) != '.' && path.charAt(end) != '[') {
                    end++;
                }
                name = path.substring(i + 1, end);
                if (name.isEmpty()) {
                    throw new IllegalArgumentException("expected a field name after '.'");
                }
                i = end;
            } else if (c == '[') {
                int close = path.indexOf(']', i);
                if (close < 0) {
                    throw new IllegalArgumentException("unexpected end of path: missing ']'");
                }
                String inside = path.substring(i + 1, close);
                i = close + 1;
                if (inside.startsWith("'") && inside.endsWith("'") && inside.length() >= 2) {
                    name = inside.substring(1, inside.length() - 1);
                } else if (allowIndexes && inside.matches("\\d+")) {
                    if (current.items() == null) {
                        throw new IllegalArgumentException("index " + inside + " does not refer to a list");
                    }
                    current = current.items();
                    root = root == null ? inside : root;
                    continue;
                } else {
                    throw new IllegalArgumentException("expected single quoted string but got " + inside);
                }
            } else {
                throw new IllegalArgumentException("expected [ or . but got: " + c);
            }
            StructuralSchema next = current.property(name);
            if (next == null) {
                next = current.additionalProperties();
            }
            if (next == null) {
                throw new IllegalArgumentException("does not refer to a valid field");
            }
            root = root == null ? name : root;
            current = next;
        }
        return new Resolved(current, root);
    }

    /** Whether {@code path} resolves (for validation rules' {@code fieldPath}). */
    public static boolean valid(String path, StructuralSchema schema) {
        return error(path, schema, true).isEmpty();
    }

    public static Optional<String> error(String path, StructuralSchema schema, boolean allowIndexes) {
        try {
            resolve(path, schema, allowIndexes);
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.of(e.getMessage());
        }
    }
}

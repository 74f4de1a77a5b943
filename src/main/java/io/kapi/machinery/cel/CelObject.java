package io.kapi.machinery.cel;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A value a CEL expression built by type construction, as kube's mutating admission policies allow it:
 * {@code Object{spec: Object.spec{replicas: 2}}} (an object of the request's kind, or of one of its
 * fields, the type named after the field path) or {@code JSONPatch{op: "add", path: "/a", value: 1}}.
 * To CEL's runtime it is the map of the fields the expression set (selection and {@code has()} work as on
 * any map; selecting a field that was not set is an error); it also knows its type name. Immutable.
 */
public final class CelObject extends AbstractMap<String, Object> {

    /** The root of apply configurations; nested ones are {@code Object.<field>}, {@code Object.<field>.<field>}, .... */
    public static final String OBJECT = "Object";
    /** The type of one JSON patch operation (fields op, path, from, value). */
    public static final String JSON_PATCH = "JSONPatch";

    private final String typeName;
    private final Map<String, Object> fields;

    /** @param typeName {@code Object}, {@code Object.<field>...} or {@code JSONPatch} */
    public CelObject(String typeName, Map<String, Object> fields) {
        this.typeName = typeName;
        this.fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    /** Whether {@code name} is one of the types CEL may construct here. */
    static boolean constructible(String name) {
        return name.equals(OBJECT) || name.startsWith(OBJECT + ".") || name.equals(JSON_PATCH);
    }

    public String typeName() {
        return typeName;
    }

    /** The fields set, in the order the expression set them. */
    public Map<String, Object> fields() {
        return fields;
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        return fields.entrySet();
    }

    /**
     * kube's {@code CheckTypeNamesMatchFieldPathNames}: every object nested in this one is typed after the
     * field path it sits at ({@code Object.spec} under {@code spec}); lists and maps in between do not add to
     * the path. Empty when all match.
     */
    public List<String> typeNameMismatches() {
        List<String> errors = new ArrayList<>();
        check(this, typeName, errors);
        return errors;
    }

    private static void check(Object value, String path, List<String> errors) {
        switch (value) {
            case CelObject o -> {
                if (!o.typeName().equals(path)) {
                    errors.add("unexpected type name \"" + o.typeName() + "\", expected \"" + path
                            + "\", which matches field name path from root Object type");
                }
                o.fields().forEach((k, v) -> check(v, path + "." + k, errors));
            }
            case Collection<?> list -> list.forEach(v -> check(v, path, errors));
            case Map<?, ?> map -> map.values().forEach(v -> check(v, path, errors));
            case null, default -> {
            }
        }
    }

    @Override
    public String toString() {
        return typeName + fields;
    }
}

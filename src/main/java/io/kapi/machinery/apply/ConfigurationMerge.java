package io.kapi.machinery.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A mutating admission policy's apply configuration merged into the request's object, as kube's
 * {@code ApplyStructuredMergeDiff} does it: the configuration is typed by the kind's schema (a field the
 * schema does not declare is an error), may not touch an atomic list, map or struct (which a merge would
 * replace whole), and is then merged with server-side apply's rules ({@link Merge}); no field ownership
 * is recorded (the policy owns nothing).
 */
final class ConfigurationMerge {

    private ConfigurationMerge() {
    }

    /**
     * A new object: {@code live} with {@code configuration} merged in (neither is changed).
     *
     * @throws IllegalArgumentException worded as kube's: {@code failed to convert patch object to typed
     *         object: .spec.foo: field not declared in schema}, {@code invalid ApplyConfiguration: may not
     *         mutate atomic arrays, maps or structs: .spec.template.spec.containers[0].args}
     */
    static ObjectNode merge(SchemaType type, ObjectNode live, ObjectNode configuration) {
        List<String> undeclared = new ArrayList<>();
        List<String> atomics = new ArrayList<>();
        walk(type, configuration, "", undeclared, atomics);
        if (!undeclared.isEmpty()) {
            throw new IllegalArgumentException("failed to convert patch object to typed object: "
                    + String.join(", ", undeclared.stream().map(p -> p + ": field not declared in schema").toList()));
        }
        if (!atomics.isEmpty()) {
            throw new IllegalArgumentException("invalid ApplyConfiguration: may not mutate atomic arrays, maps or "
                    + "structs: " + String.join(", ", atomics));
        }
        return Merge.of(type, live, configuration);
    }

    /** structured-merge-diff's {@code findAtomics}, with the schema check of converting to a typed value. */
    private static void walk(SchemaType type, JsonNode value, String path, List<String> undeclared,
                             List<String> atomics) {
        switch (type) {
            case SchemaType.MapType mt when value.isObject() -> {
                if (mt.atomic()) {
                    atomics.add(path);
                }
                for (Map.Entry<String, JsonNode> e : value.properties()) {
                    String child = path + "." + e.getKey();
                    SchemaType field = mt.field(e.getKey());
                    if (field != null) {
                        walk(field, e.getValue(), child, undeclared, atomics);
                    } else if (mt.elementType() == null) {
                        undeclared.add(child);
                    }
                }
            }
            case SchemaType.ListType lt when value.isArray() -> {
                if (lt.atomic()) {
                    atomics.add(path);
                }
                for (int i = 0; i < value.size(); i++) {
                    walk(lt.elementType(), value.get(i), path + "[" + i + "]", undeclared, atomics);
                }
            }
            default -> {
            }
        }
    }
}

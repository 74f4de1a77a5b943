package io.kapi.machinery.patch;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

/**
 * The strategic-merge view of one schema node: for each field, its patch strategy, merge key and the
 * schema of its value (of its elements, for a list). It is what kube's Go struct tags
 * ({@code patchStrategy}, {@code patchMergeKey}) say, read from the Swagger extensions
 * {@code x-kubernetes-patch-strategy} and {@code x-kubernetes-patch-merge-key} that mirror them.
 *
 * <p>Fields are resolved lazily and memoised, so a view is cheap to build and fast on repeated patches;
 * instances are immutable in behaviour and safe to share between threads. Obtain them from
 * {@link PatchSchemas}.
 */
public final class PatchSchema {

    /** A value with no schema (a scalar, or a field the schema does not know): merge maps, replace lists. */
    public static final PatchSchema ANY = new PatchSchema(null, null, null);

    private final JsonNode properties;
    private final JsonNode mapValues;
    private final Function<JsonNode, PatchSchema> resolver;
    private final ConcurrentMap<String, Field> fields = new ConcurrentHashMap<>();

    private PatchSchema(JsonNode properties, JsonNode mapValues, Function<JsonNode, PatchSchema> resolver) {
        this.properties = properties;
        this.mapValues = mapValues;
        this.resolver = resolver;
    }

    /** A struct: a schema with {@code properties}. */
    static PatchSchema struct(JsonNode properties, Function<JsonNode, PatchSchema> resolver) {
        return new PatchSchema(properties, null, resolver);
    }

    /** A map from strings to values of one schema ({@code additionalProperties}). */
    static PatchSchema mapOf(JsonNode valueSchema, Function<JsonNode, PatchSchema> resolver) {
        return new PatchSchema(null, valueSchema, resolver);
    }

    /** The patch metadata of field {@code name}; a field the schema does not declare has none. */
    public Field field(String name) {
        if (properties == null && mapValues == null) {
            return Field.NONE;
        }
        return fields.computeIfAbsent(name, this::resolveField);
    }

    private Field resolveField(String name) {
        if (mapValues != null) {
            return new Field(Strategy.NONE, false, "", resolver.apply(mapValues));
        }
        JsonNode property = properties.get(name);
        if (property == null) {
            return Field.NONE;
        }
        Strategy strategy = Strategy.NONE;
        boolean retainKeys = false;
        for (String s : property.path("x-kubernetes-patch-strategy").asText("").split(",")) {
            switch (s.trim()) {
                case "merge" -> strategy = Strategy.MERGE;
                case "replace" -> strategy = Strategy.REPLACE;
                case "retainKeys" -> retainKeys = true;
                default -> { }
            }
        }
        String mergeKey = property.path("x-kubernetes-patch-merge-key").asText("");
        return new Field(strategy, retainKeys, mergeKey, resolver.apply(property));
    }

    /** How a field's value is patched: the Go {@code patchStrategy} tag without {@code retainKeys}. */
    public enum Strategy {
        /** No tag: maps merge, lists are replaced. */
        NONE,
        /** Lists merge by merge key (maps) or by value (scalars). */
        MERGE,
        /** The value is replaced whole. */
        REPLACE
    }

    /**
     * A field's patch metadata.
     *
     * @param strategy the patch strategy
     * @param retainKeys whether the strategy lists {@code retainKeys} (informative: the server honours a
     *     {@code $retainKeys} directive wherever it appears)
     * @param mergeKey the merge key of a list of objects, empty if none
     * @param schema the schema of the value, or of each element for a list
     */
    public record Field(Strategy strategy, boolean retainKeys, String mergeKey, PatchSchema schema) {
        static final Field NONE = new Field(Strategy.NONE, false, "", ANY);
    }
}

package io.kapi.apiextensions.schema;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube-apiserver's check of the defaults in a structural schema ({@code structuraldefaulting.ValidateDefaults}):
 * every {@code default} must validate against the schema it is set in, hold no field pruning would drop
 * ({@code must not have unknown fields}), and embed only valid resources. Defaults under
 * {@code additionalProperties} are not followed (they are forbidden there).
 */
public final class DefaultsCheck {

    private static final Set<String> META = Set.of("apiVersion", "kind", "metadata");

    private DefaultsCheck() {
    }

    /** The errors of the defaults in {@code schema} at {@code path}, a resource's root schema. */
    public static List<FieldError> check(String path, StructuralSchema schema, boolean requirePruned) {
        List<FieldError> errors = new ArrayList<>();
        walk(path, schema, true, false, requirePruned, errors);
        return errors;
    }

    private static void walk(String path, StructuralSchema s, boolean embedded, boolean insideMeta,
                             boolean requirePruned, List<FieldError> errors) {
        boolean isEmbedded = embedded || s.embeddedResource();
        if (s.embeddedResource()) {
            insideMeta = false;
        }
        JsonNode def = s.defaultValue();
        if (def != null) {
            String at = path + ".default";
            if (!insideMeta && requirePruned) {
                JsonNode pruned = def.deepCopy();
                Pruning.prune(pruned, s, s.embeddedResource());
                if (!pruned.equals(def)) {
                    errors.add(FieldError.invalid(at, GoValues.errorValue(def), "must not have unknown fields"));
                }
            }
            List<FieldError> meta = insideMeta ? List.of() : EmbeddedResources.validate(at, def, s);
            errors.addAll(meta.isEmpty() ? ValueValidator.validate(at, def, s) : meta);
        }
        if (s.items() != null) {
            walk(path + ".items", s.items(), false, insideMeta, requirePruned, errors);
        }
        for (Map.Entry<String, StructuralSchema> e : s.properties().entrySet()) {
            boolean sub = insideMeta || (isEmbedded && META.contains(e.getKey()));
            walk(path + ".properties[" + e.getKey() + "]", e.getValue(), false, sub, requirePruned, errors);
        }
    }
}

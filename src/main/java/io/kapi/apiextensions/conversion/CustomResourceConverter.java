package io.kapi.apiextensions.conversion;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.apiextensions.schema.Defaulting;
import io.kapi.apiextensions.schema.Pruning;
import io.kapi.apiextensions.schema.StructuralSchema;
import io.kapi.machinery.DeepStack;
import io.kapi.machinery.conversion.Converter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Between one served version of a custom resource and its storage version, as kube's custom resource
 * codec. A stored object keeps the version it was written in (a CRD whose storage version changed has
 * objects of both until they are written again: storage-version migration), so a read takes each
 * object's own apiVersion: it gets that version's defaults (kube defaults what it decodes from etcd,
 * and does not write them back), is converted by the CRD's strategy when that is not the served version,
 * and what a conversion made is pruned by the served version's schema (unless the CRD preserves unknown
 * fields), so a webhook cannot add fields the schema does not know. A write converts to the storage
 * version, then gets its defaults as it would on the next read.
 *
 * @param served the apiVersion this version serves
 * @param stored the storage version's apiVersion (what writes store)
 * @param schemas the structural schema of each version by apiVersion (versions without one are absent)
 * @param prunes false when the CRD preserves unknown fields
 */
public record CustomResourceConverter(String served, String stored, Map<String, StructuralSchema> schemas,
                                      boolean prunes, ObjectConversion conversion) implements Converter {

    public CustomResourceConverter {
        schemas = Map.copyOf(schemas);
    }

    @Override
    public ObjectNode toStorage(ObjectNode object) {
        if (!DeepStack.onDeepStack() && schemas.values().stream().anyMatch(StructuralSchema::isDeep)) {
            return DeepStack.call(() -> toStorage(object));
        }
        List<ObjectNode> out = converted(List.of(object.deepCopy()), stored, false);
        Defaulting.apply(out.getFirst(), schemas.get(stored));
        return out.getFirst();
    }

    @Override
    public ObjectNode fromStorage(ObjectNode object) {
        return fromStorage(List.of(object), false).getFirst();
    }

    @Override
    public List<ObjectNode> fromStorage(List<ObjectNode> objects) {
        return fromStorage(objects, true);
    }

    private List<ObjectNode> fromStorage(List<ObjectNode> objects, boolean list) {
        if (!DeepStack.onDeepStack() && schemas.values().stream().anyMatch(StructuralSchema::isDeep)) {
            return DeepStack.call(() -> fromStorage(objects, list)); // defaulting and pruning recurse per level
        }
        List<ObjectNode> copies = new ArrayList<>(objects.size());
        for (ObjectNode o : objects) {
            ObjectNode copy = o.deepCopy();
            Defaulting.apply(copy, schemas.get(copy.path("apiVersion").asText()));
            copies.add(copy);
        }
        return converted(copies, served, list);
    }

    /** {@code objects} (the caller's) in {@code to}: those of another version converted, then pruned. */
    private List<ObjectNode> converted(List<ObjectNode> objects, String to, boolean list) {
        boolean[] other = new boolean[objects.size()];
        boolean any = false;
        for (int i = 0; i < other.length; i++) {
            other[i] = !to.equals(objects.get(i).path("apiVersion").asText());
            any |= other[i];
        }
        if (!any) {
            return objects;
        }
        List<ObjectNode> out = conversion.convert(objects, to, list);
        StructuralSchema schema = schemas.get(to);
        if (prunes && schema != null) {
            for (int i = 0; i < other.length; i++) {
                if (other[i]) {
                    Pruning.prune(out.get(i), schema, true);
                }
            }
        }
        return out;
    }
}

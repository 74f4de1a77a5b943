package io.kapi.apiextensions.conversion;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.apiextensions.schema.Defaulting;
import io.kapi.apiextensions.schema.Pruning;
import io.kapi.apiextensions.schema.StructuralSchema;
import io.kapi.machinery.conversion.Converter;
import java.util.List;

/**
 * Between one served version of a custom resource and its storage version, as kube's custom resource
 * codec: a stored object read back gets the storage version's defaults (kube defaults what it decodes
 * from etcd, and does not write them back), is then converted by the CRD's strategy when the versions
 * differ, and what a conversion made is pruned by the target version's schema (unless the CRD preserves
 * unknown fields), so a webhook cannot add fields the schema does not know. A write converts the other
 * way, then the storage version's defaults apply as they would on the next read.
 *
 * @param served the apiVersion this version serves
 * @param stored the storage version's apiVersion
 * @param servedSchema the served version's structural schema (pruning of reads), or null
 * @param storedSchema the storage version's structural schema (pruning of writes, defaulting), or null
 * @param prunes false when the CRD preserves unknown fields
 */
public record CustomResourceConverter(String served, String stored, StructuralSchema servedSchema,
                                      StructuralSchema storedSchema, boolean prunes, ObjectConversion conversion)
        implements Converter {

    @Override
    public ObjectNode toStorage(ObjectNode object) {
        ObjectNode copy = object.deepCopy();
        if (!served.equals(stored)) {
            copy = converted(List.of(copy), stored, storedSchema, false).getFirst();
        }
        Defaulting.apply(copy, storedSchema);
        return copy;
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
        List<ObjectNode> copies = objects.stream().map(o -> {
            ObjectNode copy = o.deepCopy();
            Defaulting.apply(copy, storedSchema);
            return copy;
        }).toList();
        return served.equals(stored) ? copies : converted(copies, served, servedSchema, list);
    }

    private List<ObjectNode> converted(List<ObjectNode> objects, String to, StructuralSchema schema, boolean list) {
        List<ObjectNode> out = conversion.convert(objects, to, list);
        if (prunes && schema != null) {
            out.forEach(o -> Pruning.prune(o, schema, true));
        }
        return out;
    }
}

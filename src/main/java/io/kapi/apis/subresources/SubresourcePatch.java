package io.kapi.apis.subresources;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.codec.RequestDecoder;
import io.kapi.endpoint.handlers.ResourceRequest;
import io.kapi.machinery.patch.PatchSchema;
import io.kapi.machinery.patch.PatchSchemas;
import io.kapi.machinery.patch.PatchType;
import io.kapi.machinery.patch.Patches;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The change a PATCH of a subresource with its own write rules asks for: a JSON, merge or strategic-merge
 * patch of the stored object (the subresource's strategy then takes what it allows); apply patches are 415.
 */
final class SubresourcePatch {

    private SubresourcePatch() {
    }

    /** Reads the patch of {@code r} (bounded as every body) and returns it as a change of the current object. */
    static UnaryOperator<ObjectNode> of(ResourceRequest r, PatchSchemas schemas) {
        PatchType type = PatchType.fromContentType(r.http().header("Content-Type"));
        if (type == PatchType.APPLY) {
            throw PatchType.unsupported(List.of(PatchType.JSON, PatchType.MERGE, PatchType.STRATEGIC_MERGE));
        }
        byte[] patch = RequestDecoder.readLimited(r.http().body(), RequestDecoder.MAX_BODY_BYTES);
        PatchSchema schema = schemas.forKind(r.resource().gvk()).orElse(null);
        return current -> Patches.apply(type, current, patch, schema);
    }
}

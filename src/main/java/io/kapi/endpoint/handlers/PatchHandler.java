package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.codec.RequestDecoder;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.apply.ApplyErrors;
import io.kapi.machinery.patch.PatchSchema;
import io.kapi.machinery.patch.PatchSchemas;
import io.kapi.machinery.patch.PatchType;
import io.kapi.machinery.patch.Patches;
import io.kapi.registry.Write;
import java.util.List;

/**
 * PATCH of one object (or of its {@code status}): JSON patch, merge patch or strategic merge patch,
 * applied by the store to the object it reads, then written like an update. The patched object keeps
 * the resourceVersion it was patched from, so a concurrent write makes the store apply the patch again
 * to the newer object; a patch that names a stale resourceVersion itself fails with 409. Custom
 * resources take no strategic merge patch (415, as kube-apiserver).
 */
public record PatchHandler(Codecs codecs, PatchSchemas schemas, ServerSideApply apply) implements VerbHandler {

    @Override
    public RestResponse handle(ResourceRequest r) {
        ResponseWriter.Negotiated response = codecs.writer().negotiate(r.http(), r.resource());
        PatchType type = PatchType.fromContentType(r.http().header("Content-Type"));
        if (type != PatchType.APPLY && r.http().param("force") != null) {
            throw ApplyErrors.invalidOptions("PatchOptions",
                    List.of(FieldError.forbidden("force", "may not be specified for non-apply patch")));
        }
        byte[] patch = RequestDecoder.readLimited(r.http().body(), RequestDecoder.MAX_BODY_BYTES);
        if (type == PatchType.APPLY) {
            return apply.handle(r, patch, response);
        }
        if (type == PatchType.STRATEGIC_MERGE && r.store().definition().custom() != null) {
            // custom resources have no patch strategies: kube-apiserver refuses strategic merge patch
            throw PatchType.unsupported(List.of(PatchType.JSON, PatchType.MERGE, PatchType.APPLY));
        }
        codecs.fields().manager(r, "PatchOptions", false);
        PatchSchema schema = schemas.forKind(r.resource().gvk()).orElse(null);
        Write write = Write.body(List.of()).on(r.info().subresource(), null);
        var result = r.store().update(r.context(), r.info().namespace(), r.info().name(), current -> {
            if (current == null) {
                throw ApiException.notFound(r.resource().gvr(), r.info().name());
            }
            return Patches.apply(type, current, patch, schema);
        }, write);
        return response.object(200, result.object());
    }
}

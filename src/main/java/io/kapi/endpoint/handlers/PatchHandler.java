package io.kapi.endpoint.handlers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.codec.Decoded;
import io.kapi.endpoint.codec.Format;
import io.kapi.endpoint.codec.RequestDecoder;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.StatusReason;
import io.kapi.machinery.apply.ApplyErrors;
import io.kapi.machinery.patch.PatchSchema;
import io.kapi.machinery.patch.PatchSchemas;
import io.kapi.machinery.patch.PatchType;
import io.kapi.machinery.patch.Patches;
import java.util.List;

/**
 * PATCH of one object (or of its {@code status}): JSON patch, merge patch or strategic merge patch
 * applied to the stored object, then written back like an update. The patched object carries the
 * resourceVersion it was patched from, so a concurrent write makes the update conflict, and the patch
 * is then applied again to the newer object, as kube-apiserver does; a patch that names a stale
 * resourceVersion itself keeps conflicting and fails with 409.
 */
public record PatchHandler(Codecs codecs, PatchSchemas schemas, ServerSideApply apply) implements VerbHandler {

    /** kube-apiserver's {@code maxRetryWhenPatchConflicts}. */
    private static final int MAX_ATTEMPTS = 5;

    @Override
    public RestResponse handle(ResourceRequest r) {
        PatchType type = PatchType.fromContentType(r.http().header("Content-Type"));
        boolean dryRun = r.dryRun();
        if (type != PatchType.APPLY && r.http().param("force") != null) {
            throw ApplyErrors.invalidOptions("PatchOptions",
                    List.of(FieldError.forbidden("force", "may not be specified for non-apply patch")));
        }
        byte[] patch = RequestDecoder.readLimited(r.http().body(), RequestDecoder.MAX_BODY_BYTES);
        if (type == PatchType.APPLY) {
            return apply.handle(r, patch, dryRun);
        }
        PatchSchema schema = schemas.forKind(r.resource().gvk()).orElse(null);
        boolean status = r.info().subresource().equals("status");
        for (int attempt = 1; ; attempt++) {
            ObjectNode current = r.store().get(r.info().namespace(), r.info().name());
            ObjectNode patched = Patches.apply(type, current, patch, schema);
            TypeCheck.apply(patched, r.resource().gvk());
            List<String> warnings = codecs.schemaCheck().check(r.http(), r.resource(),
                    new Decoded(patched, List.of(), Format.JSON));
            patched = codecs.fields().recordUpdate(r, current, patched, "PatchOptions");
            try {
                ObjectNode updated = status
                        ? r.store().updateStatus(r.info().namespace(), r.info().name(), patched, dryRun)
                        : r.store().update(r.info().namespace(), r.info().name(), patched, dryRun).object();
                return Warnings.add(codecs.writer().object(r.http(), r.resource(), 200, updated), warnings);
            } catch (ApiException e) {
                if (e.reason() != StatusReason.CONFLICT || attempt == MAX_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }
}

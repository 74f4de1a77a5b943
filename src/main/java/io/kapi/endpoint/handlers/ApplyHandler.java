package io.kapi.endpoint.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.codec.Decoded;
import io.kapi.endpoint.codec.Format;
import io.kapi.endpoint.codec.RequestDecoder;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GoBool;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import io.kapi.machinery.apply.ApplyResult;
import java.util.List;

/**
 * Server-side apply ({@code PATCH} with {@code application/apply-patch+yaml}): the applied
 * configuration is merged into the live object by field ownership; a missing object is created
 * (201); an apply that changes nothing writes nothing. Concurrent writes make the update conflict
 * and the apply is merged again into the newer object.
 */
public record ApplyHandler(Codecs codecs) implements ServerSideApply {

    private static final int MAX_ATTEMPTS = 5;

    @Override
    public RestResponse handle(ResourceRequest r, byte[] patch, boolean dryRun) {
        String manager = codecs.fields().manager(r, "PatchOptions", true);
        boolean force = GoBool.query(r.http().param("force"), false);
        Decoded decoded = RequestDecoder.decode(Format.YAML, patch, r.resource().gvk());
        ObjectNode applied = decoded.object();
        checkName(r, applied);
        String subresource = r.info().subresource();
        for (int attempt = 1; ; attempt++) {
            ObjectNode live = r.store().find(r.info().namespace(), r.info().name()).orElse(null);
            if (live == null && !subresource.isEmpty()) {
                throw ApiException.notFound(r.resource().gvr(), r.info().name());
            }
            ApplyResult result = codecs.fields().forKind(r).apply(live, applied.deepCopy(), manager, subresource,
                    force, codecs.fields().clock().instant());
            if (!result.created() && !result.changed()) {
                return codecs.writer().object(r.http(), r.resource(), 200, live);
            }
            ObjectNode object = result.object();
            TypeCheck.apply(object, r.resource().gvk());
            List<String> warnings = codecs.schemaCheck().check(r.http(), r.resource(),
                    new Decoded(object, decoded.duplicateFields(), Format.YAML));
            try {
                if (result.created()) {
                    ObjectNode created = r.store().create(r.info().namespace(), object, dryRun);
                    return Warnings.add(codecs.writer().object(r.http(), r.resource(), 201, created), warnings);
                }
                ObjectMeta.of(object).resourceVersion(ObjectMeta.of(live).resourceVersion());
                ObjectNode updated = subresource.equals("status")
                        ? r.store().updateStatus(r.info().namespace(), r.info().name(), object, dryRun)
                        : r.store().update(r.info().namespace(), r.info().name(), object, dryRun).object();
                return Warnings.add(codecs.writer().object(r.http(), r.resource(), 200, updated), warnings);
            } catch (ApiException e) {
                boolean retry = e.reason() == StatusReason.CONFLICT || e.reason() == StatusReason.ALREADY_EXISTS;
                if (!retry || attempt == MAX_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    private static void checkName(ResourceRequest r, ObjectNode applied) {
        JsonNode name = applied.path("metadata").path("name");
        if (!name.isTextual() || name.asText().isEmpty()) {
            applied.with("metadata").put("name", r.info().name());
        } else if (!name.asText().equals(r.info().name())) {
            throw ApiException.badRequest("the name of the object (%s) does not match the name on the URL (%s)"
                    .formatted(name.asText(), r.info().name()));
        }
    }
}

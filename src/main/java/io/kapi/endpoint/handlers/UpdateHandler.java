package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.codec.Decoded;
import io.kapi.registry.UpdateResult;
import io.kapi.registry.Write;

/** PUT of one object: options → decode → the body replaces the stored object → 200 (201 if created). */
public record UpdateHandler(Codecs codecs) implements VerbHandler {

    @Override
    public RestResponse handle(ResourceRequest r) {
        codecs.fields().manager(r, "UpdateOptions", false);
        Decoded body = codecs.decoder().decode(r.http(), r.resource().gvk());
        UpdateResult result = r.store().update(r.context(), r.info().namespace(), r.info().name(),
                current -> body.object().deepCopy(), Write.body(body.duplicateFields()));
        return codecs.writer().object(r.http(), r.resource(), result.created() ? 201 : 200, result.object());
    }
}

package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.codec.Decoded;
import io.kapi.registry.UpdateResult;
import io.kapi.registry.Write;

/** PUT of one object: negotiate → options → read the body → it replaces the stored object → 200 (201 if created). */
public record UpdateHandler(Codecs codecs) implements VerbHandler {

    @Override
    public RestResponse handle(ResourceRequest r) {
        ResponseWriter.Negotiated response = codecs.writer().negotiate(r.http(), r.resource());
        codecs.fields().manager(r, "UpdateOptions", false);
        Decoded body = codecs.decoder().read(r.http(), r.resource().gvk());
        UpdateResult result = r.store().update(r.context(), r.info().namespace(), r.info().name(),
                r.store().replacingWith(r.info().namespace(), r.info().name(), body.object()),
                Write.body(body.duplicateFields()));
        return response.object(result.created() ? 201 : 200, result.object());
    }
}

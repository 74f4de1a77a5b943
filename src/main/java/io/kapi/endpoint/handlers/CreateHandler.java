package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.codec.Decoded;
import io.kapi.machinery.ApiException;
import io.kapi.registry.Write;

/** POST to a collection: options → decode → store (every stage of the write) → 201. */
public record CreateHandler(Codecs codecs) implements VerbHandler {

    @Override
    public RestResponse handle(ResourceRequest r) {
        if (!r.info().name().isEmpty()) {
            throw ApiException.methodNotAllowed();
        }
        codecs.fields().manager(r, "CreateOptions", false);
        Decoded body = codecs.decoder().decode(r.http(), r.resource().gvk());
        var created = r.store().create(r.context(), r.info().namespace(), body.object(),
                Write.body(body.duplicateFields()));
        return codecs.writer().object(r.http(), r.resource(), 201, created);
    }
}

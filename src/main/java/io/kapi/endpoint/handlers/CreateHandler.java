package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.codec.Decoded;
import io.kapi.machinery.ApiException;
import io.kapi.registry.Write;

/** POST to a collection: negotiate → options → read the body → store (every stage of the write) → 201. */
public record CreateHandler(Codecs codecs) implements VerbHandler {

    @Override
    public RestResponse handle(ResourceRequest r) {
        if (!r.info().name().isEmpty()) {
            throw ApiException.methodNotAllowed();
        }
        ResponseWriter.Negotiated response = codecs.writer().negotiate(r.http(), r.resource());
        codecs.fields().manager(r, "CreateOptions", false);
        Decoded body = codecs.decoder().read(r.http(), r.resource().gvk());
        var created = r.store().create(r.context(), r.info().namespace(), body.object(),
                Write.body(body.duplicateFields()));
        return response.object(201, created);
    }
}

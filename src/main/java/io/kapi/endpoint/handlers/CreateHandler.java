package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.codec.Decoded;
import io.kapi.machinery.ApiException;
import java.util.List;

/** POST to a collection: decode → check type → validate schema → store (strategy, metadata) → 201. */
public record CreateHandler(Codecs codecs) implements VerbHandler {

    @Override
    public RestResponse handle(ResourceRequest r) {
        if (!r.info().name().isEmpty()) {
            throw ApiException.methodNotAllowed();
        }
        boolean dryRun = r.dryRun();
        Decoded body = codecs.decoder().decode(r.http(), r.resource().gvk());
        TypeCheck.apply(body.object(), r.resource().gvk());
        List<String> warnings = codecs.schemaCheck().check(r.http(), r.resource(), body);
        var tracked = codecs.fields().recordUpdate(r, null, body.object(), "CreateOptions");
        var created = r.store().create(r.info().namespace(), tracked, dryRun);
        return Warnings.add(codecs.writer().object(r.http(), r.resource(), 201, created), warnings);
    }
}

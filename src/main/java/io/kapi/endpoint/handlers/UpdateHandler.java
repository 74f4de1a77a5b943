package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.codec.Decoded;
import io.kapi.registry.UpdateResult;
import java.util.List;

/** PUT of one object: decode → check type → validate schema → compare-and-swap → 200 (201 if created). */
public record UpdateHandler(Codecs codecs) implements VerbHandler {

    @Override
    public RestResponse handle(ResourceRequest r) {
        boolean dryRun = r.dryRun();
        Decoded body = codecs.decoder().decode(r.http(), r.resource().gvk());
        TypeCheck.apply(body.object(), r.resource().gvk());
        List<String> warnings = codecs.schemaCheck().check(r.http(), r.resource(), body);
        UpdateResult result = r.store().update(r.info().namespace(), r.info().name(), body.object(), dryRun);
        int status = result.created() ? 201 : 200;
        return Warnings.add(codecs.writer().object(r.http(), r.resource(), status, result.object()), warnings);
    }
}

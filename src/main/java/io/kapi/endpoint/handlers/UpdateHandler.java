package io.kapi.endpoint.handlers;

import com.fasterxml.jackson.databind.node.ObjectNode;
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
        ObjectNode old = r.store().find(r.info().namespace(), r.info().name()).orElse(null);
        ObjectNode tracked = codecs.fields().recordUpdate(r, old, body.object(), "UpdateOptions");
        UpdateResult result = r.store().update(r.info().namespace(), r.info().name(), tracked, dryRun);
        int status = result.created() ? 201 : 200;
        return Warnings.add(codecs.writer().object(r.http(), r.resource(), status, result.object()), warnings);
    }
}

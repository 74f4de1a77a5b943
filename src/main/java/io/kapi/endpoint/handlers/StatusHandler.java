package io.kapi.endpoint.handlers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.codec.Decoded;
import io.kapi.machinery.ApiException;
import java.util.List;

/**
 * The {@code status} subresource: GET reads the object; PUT changes only its {@code status} (and
 * nothing of its spec or metadata but what the status strategy allows), keeping the optimistic
 * concurrency of the body's resourceVersion.
 */
public record StatusHandler(Codecs codecs) implements VerbHandler {

    @Override
    public RestResponse handle(ResourceRequest r) {
        return switch (r.info().verb()) {
            case GET -> new GetHandler(codecs).handle(r);
            case UPDATE -> update(r);
            default -> throw ApiException.methodNotAllowed();
        };
    }

    private RestResponse update(ResourceRequest r) {
        boolean dryRun = r.dryRun();
        Decoded body = codecs.decoder().decode(r.http(), r.resource().gvk());
        TypeCheck.apply(body.object(), r.resource().gvk());
        List<String> warnings = codecs.schemaCheck().check(r.http(), r.resource(), body);
        ObjectNode updated = r.store().updateStatus(r.info().namespace(), r.info().name(), body.object(), dryRun);
        return Warnings.add(codecs.writer().object(r.http(), r.resource(), 200, updated), warnings);
    }
}

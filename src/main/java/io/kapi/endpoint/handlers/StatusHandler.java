package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.codec.Decoded;
import io.kapi.machinery.ApiException;
import io.kapi.registry.Write;

/**
 * The {@code status} subresource: GET reads the object; PUT changes only its {@code status} (and
 * nothing of its spec or metadata but what the status strategy allows), keeping the optimistic
 * concurrency of the body's resourceVersion, with its managed fields recorded for {@code status}.
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
        ResponseWriter.Negotiated response = codecs.writer().negotiate(r.http(), r.resource());
        codecs.fields().manager(r, "UpdateOptions", false);
        Decoded body = codecs.decoder().read(r.http(), r.resource().gvk());
        var result = r.store().update(r.context(), r.info().namespace(), r.info().name(),
                r.store().replacingWith(r.info().namespace(), r.info().name(), body.object()),
                Write.body(body.duplicateFields()).on("status", null));
        return response.object(200, result.object());
    }
}

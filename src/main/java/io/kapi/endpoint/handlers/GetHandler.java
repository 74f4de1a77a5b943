package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RestResponse;

/** GET of one object. */
public record GetHandler(Codecs codecs) implements VerbHandler {

    @Override
    public RestResponse handle(ResourceRequest r) {
        var read = r.store().getShared(r.info().namespace(), r.info().name(), r.http().param("resourceVersion"));
        return codecs.writer().shared(r.http(), r.resource(), 200, read);
    }
}

package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RestResponse;

/** GET of a collection, in one namespace or across all of them, paged by {@code limit}/{@code continue}. */
public record ListHandler(Codecs codecs) implements VerbHandler {

    @Override
    public RestResponse handle(ResourceRequest r) {
        var page = r.store().listShared(r.info().namespace(), ListParams.read(r.http()));
        return codecs.writer().list(r.http(), r.resource(), page, Lists.typedItems(r.store()));
    }
}

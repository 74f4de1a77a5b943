package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RestResponse;

/** DELETE of a collection: deletes what the selectors pick and answers the list of deleted objects. */
public record DeleteCollectionHandler(Codecs codecs) implements VerbHandler {

    @Override
    public RestResponse handle(ResourceRequest r) {
        var options = DeleteOptionsReader.read(r.http(), r.dryRun());
        var deleted = r.store().deleteCollection(r.context(), r.info().namespace(), ListParams.read(r.http()), options);
        return codecs.writer().plain(r.http(), 200, Lists.of(r.resource(), deleted, Lists.typedItems(r.store())));
    }
}

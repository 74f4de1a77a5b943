package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RestResponse;

/** DELETE of a collection: deletes what the selectors pick and answers the list of deleted objects. */
public record DeleteCollectionHandler(Codecs codecs) implements VerbHandler {

    @Override
    public RestResponse handle(ResourceRequest r) {
        ResponseWriter.Negotiated response = codecs.writer().negotiatePlain(r.http());
        var options = DeleteOptionsReader.read(r.http(), r.dryRun()).safe();
        var deleted = r.store().deleteCollection(r.context(), r.info().namespace(), ListParams.read(r.http()), options);
        return response.object(200, Lists.of(r.resource(), deleted, Lists.typedItems(r.store())));
    }
}

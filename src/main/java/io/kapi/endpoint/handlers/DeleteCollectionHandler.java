package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RestResponse;
import io.kapi.registry.LabelSelector;
import io.kapi.registry.ListOptions;

/** DELETE of a collection: deletes what the selectors pick and answers the list of deleted objects. */
public record DeleteCollectionHandler(Codecs codecs) implements VerbHandler {

    @Override
    public RestResponse handle(ResourceRequest r) {
        var options = DeleteOptionsReader.read(r.http(), r.dryRun());
        FieldSelectors fields = FieldSelectors.parse(r.http().param("fieldSelector"));
        ListOptions list = new ListOptions(0, null, LabelSelector.parse(r.http().param("labelSelector")), fields.name());
        var deleted = r.store().deleteCollection(r.info().namespace(), list, options);
        return codecs.writer().plain(r.http(), 200, Lists.of(r.resource(), deleted));
    }
}

package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.ApiException;
import io.kapi.registry.LabelSelector;
import io.kapi.registry.ListOptions;
import io.kapi.registry.ListResult;
import java.util.List;

/** GET of a collection, in one namespace or across all of them, paged by {@code limit}/{@code continue}. */
public record ListHandler(Codecs codecs) implements VerbHandler {

    @Override
    public RestResponse handle(ResourceRequest r) {
        FieldSelectors fields = FieldSelectors.parse(r.http().param("fieldSelector"));
        String namespace = r.info().namespace();
        if (fields.namespace() != null && r.resource().namespaced()) {
            if (!namespace.isEmpty() && !namespace.equals(fields.namespace())) {
                return codecs.writer().list(r.http(), r.resource(),
                        new ListResult(List.of(), Long.toString(0), null, null));
            }
            namespace = fields.namespace();
        }
        ListOptions options = new ListOptions(limit(r.http().param("limit")), r.http().param("continue"),
                LabelSelector.parse(r.http().param("labelSelector")), fields.name());
        return codecs.writer().list(r.http(), r.resource(), r.store().list(namespace, options));
    }

    static long limit(String value) {
        if (value == null || value.isEmpty()) {
            return 0;
        }
        try {
            return Math.max(0, Long.parseLong(value));
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("invalid value for limit: " + value);
        }
    }
}

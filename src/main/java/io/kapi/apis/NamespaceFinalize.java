package io.kapi.apis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.handlers.Codecs;
import io.kapi.endpoint.handlers.ResourceRequest;
import io.kapi.endpoint.handlers.ResponseWriter;
import io.kapi.endpoint.handlers.VerbHandler;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.ObjectMeta;
import io.kapi.registry.DeleteOptions;
import io.kapi.registry.Strategy;
import io.kapi.registry.StrategyDecorator;
import io.kapi.registry.Write;
import io.kapi.request.Verb;

/**
 * {@code PUT /api/v1/namespaces/{name}/finalize}: replaces only {@code spec.finalizers}. A
 * terminating namespace whose finalizers are all gone is then deleted, as the namespace controller
 * does right after finalizing.
 */
public record NamespaceFinalize(Codecs codecs) implements VerbHandler {

    @Override
    public RestResponse handle(ResourceRequest r) {
        if (r.info().verb() != Verb.UPDATE) {
            throw ApiException.methodNotAllowed();
        }
        ResponseWriter.Negotiated response = codecs.writer().negotiate(r.http(), r.resource());
        boolean dryRun = r.dryRun();
        ObjectNode body = codecs.decoder().decode(r.http(), r.resource().gvk()).object();
        ObjectNode updated = r.store().update(r.context(), "", r.info().name(), current -> {
            if (current == null) {
                throw ApiException.notFound(r.resource().gvr(), r.info().name());
            }
            return body.deepCopy();
        }, Write.subresource("finalize", new FinalizersOnly(r.store().strategy()))).object();
        if (!dryRun && !ObjectMeta.of(updated).deletionTimestamp().isEmpty()
                && updated.path("spec").path("finalizers").isEmpty() && !ObjectMeta.of(updated).hasFinalizers()) {
            r.store().delete(r.context(), "", r.info().name(), DeleteOptions.DEFAULT);
        }
        return response.object(200, updated);
    }

    /** Takes {@code spec.finalizers} from the body and everything else from the stored namespace. */
    public record FinalizersOnly(Strategy base) implements StrategyDecorator {

        @Override
        public void applyDefaults(ObjectNode object) {
        }

        @Override
        public void prepareForUpdate(ObjectNode object, ObjectNode old) {
            JsonNode finalizers = object.path("spec").get("finalizers");
            String rv = ObjectMeta.of(object).resourceVersion();
            object.removeAll();
            object.setAll(old.deepCopy());
            ObjectNode spec = object.with("spec");
            if (finalizers == null || finalizers.isNull()) {
                spec.remove("finalizers");
            } else {
                spec.set("finalizers", finalizers);
            }
            ObjectMeta.of(object).resourceVersion(rv);
        }
    }
}

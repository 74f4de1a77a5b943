package io.kapi.endpoint.handlers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.codec.Decoded;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.DeepStack;
import io.kapi.machinery.GoBool;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.apply.ApplyResult;
import io.kapi.machinery.apply.FieldManager;
import io.kapi.machinery.validation.FieldValidation;
import io.kapi.registry.UpdateResult;
import io.kapi.registry.Write;
import java.util.List;

/**
 * Server-side apply ({@code PATCH} with {@code application/apply-patch+yaml}): the store merges the
 * applied configuration into the object it reads, by field ownership; a missing object is created
 * (201); an apply that changes nothing writes nothing. A {@code metadata.resourceVersion} in the applied
 * configuration is a precondition (409 when stale), as kube-apiserver; without one a concurrent write
 * makes the store merge again into the newer object. The merge uses the reset fields of the subresource
 * (the main resource owns no status field, status no spec field), and its result must name the object of
 * the URL, as kube's patcher checks it after merging.
 */
public record ApplyHandler(Codecs codecs) implements ServerSideApply {

    @Override
    public RestResponse handle(ResourceRequest r, byte[] patch, ResponseWriter.Negotiated response) {
        String manager = codecs.fields().manager(r, "PatchOptions", true);
        boolean force = GoBool.query(r.http().param("force"), false);
        Decoded decoded = codecs.decoder().decodeApplied(patch, r.resource().gvk());
        ObjectNode applied = decoded.object();
        String subresource = r.info().subresource();
        String precondition = ObjectMeta.of(applied).resourceVersion();
        FieldManager fields = codecs.fields().forKind(r).forSubresource(subresource,
                r.resource().subresource("status") != null);
        // duplicate keys: refused after the merge under Strict, as kube's patcher; else warned by the store
        boolean strict = FieldValidation.parse(r.context().fieldValidation(), "PatchOptions") == FieldValidation.STRICT;
        List<String> duplicates = decoded.duplicateFields();
        Write write = Write.body(strict ? List.of() : duplicates).on(subresource, null).applied();
        UpdateResult result = r.store().update(r.context(), r.info().namespace(), r.info().name(), current -> {
            if (current == null && !subresource.isEmpty()) {
                throw ApiException.notFound(r.resource().gvr(), r.info().name());
            }
            DeepStack.require(applied); // the apply engine recurses into it
            ApplyResult merged = fields.apply(current, applied.deepCopy(), manager, subresource, force,
                    codecs.fields().clock().instant());
            ObjectNode object = merged.object();
            if (strict && !duplicates.isEmpty()) {
                throw ApiException.badRequest("error strict decoding YAML: " + String.join(", ", duplicates));
            }
            checkIdentity(r, object, current == null);
            if (current != null) {
                ObjectMeta.of(object).resourceVersion(precondition.isEmpty()
                        ? ObjectMeta.of(current).resourceVersion() : precondition);
            }
            return object;
        }, write);
        return response.object(result.created() ? 201 : 200, result.object());
    }

    /**
     * What kube's patcher checks of the merged object, in its order: on create, that it names no uid (there
     * is no object it could be); that its namespace, if any, is the request's; that its name is the URL's.
     * An apply with no name to an existing object keeps the object's; one creating an object must name
     * it (generateName is no name: kube answers 400 for it).
     */
    private static void checkIdentity(ResourceRequest r, ObjectNode object, boolean creating) {
        ObjectMeta meta = ObjectMeta.of(object);
        String name = r.info().name();
        if (creating && !meta.uid().isEmpty()) {
            throw ApiException.conflict(r.resource().gvr(), name, "uid mismatch: the provided object specified uid "
                    + meta.uid() + ", and no existing object was found");
        }
        String namespace = r.resource().namespaced() ? r.info().namespace() : "";
        if (!meta.namespace().isEmpty() && !namespace.isEmpty() && !meta.namespace().equals(namespace)) {
            throw ApiException.badRequest(
                    "the namespace of the provided object does not match the namespace sent on the request");
        }
        if (!meta.name().equals(name)) {
            throw ApiException.badRequest("the name of the object (%s) does not match the name on the URL (%s)"
                    .formatted(meta.name(), name));
        }
    }
}

package io.kapi.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.Operation;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoJson;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.Json;
import io.kapi.machinery.Lazy;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.TypeMeta;
import io.kapi.machinery.apply.FieldManager;
import io.kapi.machinery.apply.FieldManagers;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.validation.FieldValidation;
import io.kapi.machinery.validation.RequiredFields;
import io.kapi.machinery.validation.ValidationResult;
import io.kapi.request.RequestContext;
import io.kapi.request.Verb;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The stages every write passes, each in one place, in the order of kube-apiserver's handlers and
 * generic store: decode checks (kind, schema: types, unknown fields, required fields noted) → defaults
 * → managed fields → mutating admission → prepare (metadata and the strategy's) → validation (metadata,
 * the required fields still missing, the kind's rules) → validating admission → canonicalize. Storage is
 * the {@link ResourceStore}'s; nothing here reads or writes it.
 *
 * <p>The first three stages run on the object in the version the store serves (decode checks and
 * managed fields with the served kind's schema); the store converts it to the storage version before
 * admission, and the stages after that run on the stored object (see {@link ResourceStore}).
 */
final class WriteStages {

    private final ApiResource resource;
    private final StoreServices services;
    /** The kind's own schema (a custom resource's), or null to use the server's. */
    private final KindSchema kindSchema;
    /**
     * The kind's field manager, or null when the server tracks no fields. A built-in kind's is built
     * from the schemas on its first write: a server serves some sixty kinds and a start writes objects
     * of a few.
     */
    private final Supplier<FieldManager> fieldManager;

    WriteStages(ResourceDefinition definition, StoreServices services) {
        this.resource = definition.api();
        this.services = services;
        this.kindSchema = definition.custom() == null ? null : definition.custom().schema();
        this.fieldManager = kindSchema != null ? kindSchema::fieldManager
                : services.fields() == null ? () -> null
                : Lazy.of(() -> services.fields().forKind(resource.gvk()));
    }

    /**
     * The decoding checks of a written object (kube's decoding into its Go type): apiVersion and kind
     * must be the endpoint's (absent ones are filled), wrong JSON types fail with 400, unknown fields are
     * dropped and warned about or refused by {@code fieldValidation}. Returns the required fields missing
     * now, which {@link #validate} looks at again once defaults and admission ran.
     */
    List<FieldError> decode(RequestContext ctx, ObjectNode object, Write write) {
        if (write.decoded() == null) {
            return List.of();
        }
        TypeMeta.checkAndFill(object, resource.gvk());
        if (services.schema() == null && kindSchema == null) {
            return List.of();
        }
        FieldValidation mode = FieldValidation.parse(ctx.fieldValidation(), optionsKind(ctx));
        ValidationResult result = kindSchema != null ? kindSchema.decode(object, mode, write.decoded())
                : services.schema().validate(resource.gvk(), object, mode, write.decoded());
        ctx.warnings().addAll(result.warnings());
        return result.errors();
    }

    /** Records the request manager's changes from {@code old} (null on create), with the strategy's reset fields. */
    void track(RequestContext ctx, ObjectNode old, ObjectNode object, Write write) {
        FieldManager fieldManager = write.tracking() == Write.Tracking.RECORD ? this.fieldManager.get() : null;
        if (fieldManager == null) {
            return;
        }
        String manager = FieldManagers.managerOrUserAgent(ctx.fieldManager(), ctx.userAgent());
        FieldManager tracking = write.subresource().equals("status") ? fieldManager.resetting(List.of(List.of("spec")))
                : hasStatus() && write.subresource().isEmpty() ? fieldManager.resetting(List.of(List.of("status")))
                : fieldManager;
        tracking.recordUpdate(old, object, manager, write.subresource(), services.clock().instant());
    }

    private boolean hasStatus() {
        return resource.subresource("status") != null;
    }

    /** The attributes admission sees of this write. */
    Attributes attributes(RequestContext ctx, Operation operation, ObjectNode object, ObjectNode old,
                          String subresource, ObjectNode options) {
        ObjectMeta meta = ObjectMeta.of(object != null ? object : old);
        String name = meta.name();
        String namespace = resource.namespaced() ? meta.namespace() : "";
        return new Attributes(operation, new Attributes.Target(resource.gvk(), resource.gvr(), subresource, namespace,
                name), object, old, ctx.user(), ctx.dryRun(), options, ctx, new java.util.concurrent.ConcurrentHashMap<>());
    }

    /** kube's {@code FillObjectMetaSystemFields} and the clearing of what clients may not set on create. */
    void prepareMetadataForCreate(ObjectMeta meta) {
        meta.uid(UUID.randomUUID().toString());
        meta.creationTimestamp(services.clock().instant());
        meta.resourceVersion(null);
        meta.node().remove("deletionTimestamp");
        meta.node().remove("deletionGracePeriodSeconds");
        meta.node().remove("selfLink");
    }

    /** What an update keeps of the stored metadata whatever the client sent. */
    static void prepareMetadataForUpdate(ObjectMeta meta, ObjectMeta old) {
        if (meta.uid().isEmpty()) {
            meta.copyFrom(old, "uid");
        }
        meta.copyFrom(old, "creationTimestamp");
        meta.copyFrom(old, "deletionTimestamp");
        meta.copyFrom(old, "deletionGracePeriodSeconds");
        meta.node().remove("selfLink");
        meta.resourceVersion(null);
    }

    /**
     * Validation of a new object: metadata, the required fields still missing (as the caller found
     * them: in the served version, see {@link RequiredFields#stillMissing}), the kind's rules.
     */
    void validateCreate(ObjectNode object, List<FieldError> stillMissing, Strategy strategy) {
        List<FieldError> errors = new ArrayList<>(services.metadata().validate(resource, object));
        errors.addAll(stillMissing);
        errors.addAll(strategy.validate(object));
        throwIfInvalid(object, errors);
    }

    /** Validation of an update: the common update rules, metadata, required fields, the kind's update rules. */
    void validateUpdate(ObjectNode object, ObjectNode old, List<FieldError> stillMissing, Strategy strategy) {
        List<FieldError> errors = new ArrayList<>(commonUpdateRules(ObjectMeta.of(object), ObjectMeta.of(old)));
        errors.addAll(services.metadata().validate(resource, object));
        errors.addAll(stillMissing);
        errors.addAll(strategy.validateUpdate(object, old));
        throwIfInvalid(object, errors);
    }

    private void throwIfInvalid(ObjectNode object, List<FieldError> errors) {
        if (!errors.isEmpty()) {
            ObjectMeta meta = ObjectMeta.of(object);
            throw ApiException.invalid(resource.gvk(), meta.name().isEmpty() ? meta.generateName() : meta.name(), errors);
        }
    }

    private static List<FieldError> commonUpdateRules(ObjectMeta meta, ObjectMeta old) {
        List<FieldError> errors = new ArrayList<>();
        if (!meta.uid().equals(old.uid())) {
            errors.add(FieldError.invalid("metadata.uid", GoStrings.quote(meta.uid()), "field is immutable"));
        }
        if (!old.deletionTimestamp().isEmpty() && meta.node().has("finalizers")) {
            for (JsonNode f : meta.node().path("finalizers")) {
                boolean known = false;
                for (JsonNode o : old.node().path("finalizers")) {
                    known |= o.asText().equals(f.asText());
                }
                if (!known) {
                    errors.add(FieldError.forbidden("metadata.finalizers",
                            "no new finalizers can be added if the object is being deleted, found new finalizers [\""
                                    + f.asText() + "\"]"));
                }
            }
        }
        return errors;
    }

    /** The {@code meta.k8s.io/v1} options object of the request, as admission sees it. */
    static ObjectNode options(RequestContext ctx) {
        ObjectNode options = Json.object();
        options.put("apiVersion", "meta.k8s.io/v1");
        options.put("kind", optionsKind(ctx));
        if (ctx.dryRun()) {
            options.putArray("dryRun").add("All");
        }
        if (ctx.fieldManager() != null && !ctx.fieldManager().isEmpty()) {
            options.put("fieldManager", ctx.fieldManager());
        }
        return options;
    }

    /** The options kind kube names in errors about this request's parameters. */
    static String optionsKind(RequestContext ctx) {
        Verb verb = ctx.info().verb();
        return verb == Verb.UPDATE ? "UpdateOptions" : verb == Verb.PATCH ? "PatchOptions"
                : verb == Verb.DELETE || verb == Verb.DELETECOLLECTION ? "DeleteOptions" : "CreateOptions";
    }
}

package io.kapi.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.AdmissionChain;
import io.kapi.admission.Attributes;
import io.kapi.admission.Operation;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.FieldError;
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
 * The stages every write passes, create and update alike, each named and in one place, in the order of
 * kube-apiserver's handlers and generic store ({@code createHandler} + {@code Store.Create}, or the
 * update function {@code GuaranteedUpdate} runs):
 * <pre>
 *   decode → identify → default → normalize → managed fields → convert → mutating admission → prepare
 *     → validate → validating admission → canonicalize       (then the store persists: create or CAS)
 * </pre>
 * <ul>
 *   <li><b>decode</b>: what kube's decoding into the Go type does: apiVersion and kind must be the
 *       endpoint's (absent ones are filled), JSON types must fit (400), unknown fields are dropped and
 *       warned about or refused by {@code fieldValidation}, duplicate fields likewise; the required fields
 *       missing now are noted. The one schema walk of the write; skipped for objects the server built
 *       from a stored one ({@link Write#decoded()} null);</li>
 *   <li><b>identify</b>: the namespace and name of the request given to the object (or checked against it);</li>
 *   <li><b>default</b>, <b>normalize</b> (with protobuf storage: the object through its protobuf message and
 *       back, as kube holds it in its Go type), <b>managed fields</b> (the request manager's changes, with
 *       the strategy's reset fields): in the version the store serves;</li>
 *   <li><b>convert</b> to the storage version: what follows runs on the stored kind;</li>
 *   <li><b>prepare</b>: metadata the server owns (uid, timestamps, resourceVersion precondition on update,
 *       the generated name on create) and the strategy's prepare and begin hooks;</li>
 *   <li><b>validate</b>: metadata, the required fields still missing, the kind's rules (update rules on
 *       update);</li>
 *   <li><b>canonicalize</b>, and the strategy's warnings.</li>
 * </ul>
 * Storage is the {@link ResourceStore}'s; nothing here reads or writes it.
 */
final class WriteStages {

    /** One named step of a write. */
    record Stage(String name, java.util.function.Consumer<WritePass> step) {
    }

    private final ApiResource resource;
    private final StoreServices services;
    private final ServedVersion served;
    /** The kind's own schema (a custom resource's), or null to use the server's. */
    private final KindSchema kindSchema;
    /**
     * The kind's field manager, or null when the server tracks no fields. A built-in kind's is built
     * from the schemas on its first write: a server serves some sixty kinds and a start writes objects
     * of a few.
     */
    private final Supplier<FieldManager> fieldManager;
    private final List<Stage> stages;
    /** Whether objects are normalized as protobuf storage keeps them ({@link #normalize}). */
    private final boolean normalizes;

    WriteStages(ResourceDefinition definition, StoreServices services) {
        this.resource = definition.api();
        this.services = services;
        this.served = new ServedVersion(definition);
        this.kindSchema = definition.custom() == null ? null : definition.custom().schema();
        this.normalizes = ObjectCodec.mediaType(definition, services.atRest()).equals(AtRest.PROTOBUF)
                && io.kapi.machinery.protobuf.ProtobufCodec.supports(resource.gvk());
        this.fieldManager = kindSchema != null ? kindSchema::fieldManager
                : services.fields() == null ? () -> null
                : Lazy.of(() -> services.fields().forKind(resource.gvk()));
        this.stages = List.of(
                new Stage("decode", this::decode),
                new Stage("identify", this::identify),
                new Stage("default", p -> p.strategy.applyDefaults(p.object)),
                new Stage("normalize", this::normalize),
                new Stage("managed fields", this::track),
                new Stage("convert", this::convert),
                new Stage("mutating admission", p -> admission().admit(attributes(p))),
                new Stage("prepare", this::prepare),
                new Stage("validate", this::validate),
                new Stage("validating admission", p -> admission().validate(attributes(p))),
                new Stage("canonicalize", WriteStages::canonicalize));
    }

    /** The stages in order, for whoever wants to see them (tests, docs). */
    List<Stage> stages() {
        return stages;
    }

    /** Runs every stage on {@code pass}, in order; the first that fails ends the write. */
    void run(WritePass pass) {
        for (Stage stage : stages) {
            stage.step().accept(pass);
        }
    }

    private AdmissionChain admission() {
        return services.admission().get();
    }

    private void decode(WritePass p) {
        if (p.write.decoded() == null) {
            return;
        }
        TypeMeta.checkAndFill(p.object, resource.gvk());
        if (services.schema() == null && kindSchema == null) {
            return;
        }
        FieldValidation mode = FieldValidation.parse(p.ctx.fieldValidation(), optionsKind(p.ctx));
        ValidationResult result = kindSchema != null ? kindSchema.decode(p.object, mode, p.write.decoded())
                : services.schema().validate(resource.gvk(), p.object, mode, p.write.decoded());
        p.ctx.warnings().addAll(result.warnings());
        p.missing = result.errors();
    }

    /**
     * The request's namespace given to the object (cluster-scoped objects have none), or checked against
     * the one it names; on update, likewise the stored object's name.
     */
    private void identify(WritePass p) {
        ObjectMeta meta = p.meta();
        if (!resource.namespaced()) {
            meta.namespace(null);
        } else if (meta.namespace().isEmpty()) {
            meta.namespace(p.namespace);
        } else if (!meta.namespace().equals(p.namespace)) {
            throw ApiException.badRequest(
                    "the namespace of the provided object does not match the namespace sent on the request");
        }
        if (!p.creating()) {
            checkName(meta, ObjectMeta.of(p.old).name());
        }
    }

    /** The name of the URL given to an object without one, or checked against the one it has. */
    static void checkName(ObjectMeta meta, String name) {
        if (meta.name().isEmpty()) {
            meta.name(name);
        } else if (!meta.name().equals(name)) {
            throw ApiException.badRequest("the name of the object (%s) does not match the name on the URL (%s)"
                    .formatted(meta.name(), name));
        }
    }

    /**
     * With protobuf storage, a built-in object as kube-apiserver holds it after decoding into its Go type
     * and defaulting: what the store will keep of it (zero values Go leaves out, empty lists and maps
     * dropped), so that its managed fields, admission and the response see what later reads return.
     */
    private void normalize(WritePass p) {
        if (normalizes) {
            try {
                io.kapi.machinery.protobuf.ProtobufCodec.normalize(p.object, resource.gvk());
            } catch (IllegalArgumentException e) {
                // a value protobuf cannot carry (validation words it); kept as it is
            }
        }
    }

    /** Records the request manager's changes from the old object (none on create), with the strategy's reset fields. */
    private void track(WritePass p) {
        FieldManager manager = p.write.tracking() == Write.Tracking.RECORD ? fieldManager.get() : null;
        if (manager == null) {
            return;
        }
        String name = FieldManagers.managerOrUserAgent(p.ctx.fieldManager(), p.ctx.userAgent());
        manager.forSubresource(p.write.subresource(), hasStatus())
                .recordUpdate(p.oldServed, p.object, name, p.write.subresource(), services.clock().instant());
    }

    private boolean hasStatus() {
        return resource.subresource("status") != null;
    }

    /**
     * To the storage version; the required fields missing are those found in the served version (the
     * only version their paths name), before defaults and admission may have filled them.
     */
    private void convert(WritePass p) {
        if (served.converts()) {
            p.missing = RequiredFields.stillMissing(p.object, p.missing);
            p.object = served.toStored(p.object);
        }
    }

    private void prepare(WritePass p) {
        ObjectMeta meta = p.meta();
        if (p.creating()) {
            prepareMetadataForCreate(meta);
            // the name is generated before the strategy prepares the object, as kube-apiserver does (a
            // job's generated selector labels its pods with the job's name)
            p.generatedName = meta.name().isEmpty() && !meta.generateName().isEmpty();
            if (p.generatedName) {
                meta.name(NameGenerator.generate(meta.generateName()));
            }
            p.strategy.prepareForCreate(p.object);
            p.strategy.prepareRequester(p.object, p.ctx.user());
            p.finish = p.strategy.beginCreate(p.object, p.ctx.dryRun());
        } else {
            checkPrecondition(meta, p.revision, p.strategy);
            prepareMetadataForUpdate(meta, ObjectMeta.of(p.old));
            p.strategy.prepareForUpdate(p.object, p.old);
            p.finish = p.strategy.beginUpdate(p.object, p.old, p.ctx.dryRun());
        }
    }

    /**
     * Validation: the common update rules (on update), metadata, the required fields still missing (for a
     * converting store those found in the served version, see {@link RequiredFields#stillMissing}), the
     * kind's rules.
     */
    private void validate(WritePass p) {
        List<FieldError> errors = new ArrayList<>();
        if (!p.creating()) {
            errors.addAll(commonUpdateRules(p.meta(), ObjectMeta.of(p.old)));
        }
        errors.addAll(services.metadata().validate(resource, p.object));
        errors.addAll(served.converts() ? p.missing : RequiredFields.stillMissing(p.object, p.missing));
        errors.addAll(p.creating() ? p.strategy.validate(p.object) : p.strategy.validateUpdate(p.object, p.old));
        if (!errors.isEmpty()) {
            ObjectMeta meta = p.meta();
            throw ApiException.invalid(resource.gvk(), meta.name().isEmpty() ? meta.generateName() : meta.name(), errors);
        }
    }

    private static void canonicalize(WritePass p) {
        p.strategy.canonicalize(p.object);
        if (p.creating()) {
            p.ctx.warnings().addAll(p.strategy.warningsOnCreate(p.object));
        }
    }

    /** The attributes admission sees of a pass. */
    private Attributes attributes(WritePass p) {
        return attributes(p.ctx, p.operation(), p.object, p.old, p.write.subresource(), options(p.ctx));
    }

    /** The attributes admission sees of a write or delete. */
    Attributes attributes(RequestContext ctx, Operation operation, ObjectNode object, ObjectNode old,
                          String subresource, ObjectNode options) {
        ObjectMeta meta = ObjectMeta.of(object != null ? object : old);
        String name = meta.name();
        String namespace = resource.namespaced() ? meta.namespace() : "";
        return new Attributes(operation, new Attributes.Target(resource.gvk(), resource.gvr(), subresource, namespace,
                name), object, old, ctx.user(), ctx.dryRun(), options, ctx, io.kapi.audit.AuditContext.admissionAnnotations());
    }

    /** kube's {@code FillObjectMetaSystemFields} and the clearing of what clients may not set on create. */
    private void prepareMetadataForCreate(ObjectMeta meta) {
        meta.uid(UUID.randomUUID().toString());
        meta.creationTimestamp(services.clock().instant());
        meta.resourceVersion(null);
        meta.node().remove("deletionTimestamp");
        meta.node().remove("deletionGracePeriodSeconds");
        meta.node().remove("selfLink");
    }

    /** What an update keeps of the stored metadata whatever the client sent. */
    private static void prepareMetadataForUpdate(ObjectMeta meta, ObjectMeta old) {
        if (meta.uid().isEmpty()) {
            meta.copyFrom(old, "uid");
        }
        meta.copyFrom(old, "creationTimestamp");
        meta.copyFrom(old, "deletionTimestamp");
        meta.copyFrom(old, "deletionGracePeriodSeconds");
        meta.node().remove("selfLink");
        meta.resourceVersion(null);
    }

    /** kube's resourceVersion precondition of an update. */
    private void checkPrecondition(ObjectMeta meta, long revision, Strategy using) {
        String wanted = meta.resourceVersion();
        if (wanted.isEmpty()) {
            if (!using.allowUnconditionalUpdate()) {
                throw ApiException.invalid(resource.gvk(), meta.name(), List.of(FieldError.invalid(
                        "metadata.resourceVersion", "\"\"", "must be specified for an update")));
            }
            return;
        }
        if (!wanted.equals(Long.toString(revision))) {
            throw ApiException.staleUpdate(resource.gvr(), meta.name());
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

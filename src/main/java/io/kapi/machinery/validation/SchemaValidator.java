package io.kapi.machinery.validation;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.schema.Schemas;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks a decoded object against its kind's schema the way kube-apiserver's decoding into Go structs
 * does, and prunes what Go decoding would drop.
 *
 * <ol>
 *   <li>Wrong JSON types: 400 BadRequest, {@code Deployment in version "v1" cannot be handled as a
 *       Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type
 *       int32}; bad quantities, times and base64 likewise with Go's messages. As in Go, the first plain type
 *       error is reported unless a quantity, int-or-string or time error (a custom unmarshaller's) comes up.</li>
 *   <li>Unknown fields (outside {@code x-kubernetes-preserve-unknown-fields} and untyped fields such as
 *       RawExtension) are removed from {@code obj} in every mode, and {@code null} struct fields too.
 *       With duplicates from the decoder they are then: {@link FieldValidation#STRICT} 400 {@code ...: strict
 *       decoding error: duplicate field "metadata.name", unknown field "spec.foo"}; {@link FieldValidation#WARN}
 *       warnings; {@link FieldValidation#IGNORE} nothing.</li>
 *   <li>Missing required fields: returned as {@code Required value} field errors with kube's paths
 *       ({@code spec.template.spec.containers[0].name}), for the caller to merge into one 422. Only absent,
 *       null or empty-array values count; integers, int-or-strings, booleans and anything under {@code status}
 *       are left to the strategies, since Go cannot tell them from zero values and kube-apiserver checks ranges
 *       instead. A missing required struct with required fields of its own reports those instead.</li>
 * </ol>
 *
 * Thread-safe; kinds are compiled on first use and cached.
 */
public final class SchemaValidator {

    private final ShapeCompiler compiler;
    private final Schemas schemas;
    private final Map<GroupVersionKind, Shape> roots = new ConcurrentHashMap<>();

    public SchemaValidator(Schemas schemas) {
        this.schemas = schemas;
        this.compiler = new ShapeCompiler(schemas);
    }

    /**
     * Validates and prunes {@code obj}, an object of kind {@code gvk}.
     *
     * @param duplicateFields the decoder's duplicate-field messages ({@code Decoded.duplicateFields()})
     * @throws ApiException 400 BadRequest for type errors, and in Strict mode for unknown or duplicate fields
     */
    public ValidationResult validate(GroupVersionKind gvk, ObjectNode obj, FieldValidation mode,
                                     List<String> duplicateFields) {
        Walk walk = new Walk(gvk, root(gvk));
        walk.run(obj);
        if (mode == FieldValidation.IGNORE || (walk.unknown.isEmpty() && duplicateFields.isEmpty())) {
            return walk.errors.isEmpty() ? ValidationResult.CLEAN : new ValidationResult(List.of(), walk.errors);
        }
        List<String> strict = new ArrayList<>(duplicateFields);
        for (String path : walk.unknown) {
            strict.add("unknown field " + GoStrings.quote(path));
        }
        if (mode == FieldValidation.STRICT) {
            throw Walk.decodeError(gvk, "strict decoding error: " + String.join(", ", strict));
        }
        return new ValidationResult(FieldValidation.warnings(strict), walk.errors);
    }

    /**
     * Checks the {@code metadata} of an object whose kind has no schema here (a custom resource) as Go
     * decodes it into {@code ObjectMeta}: type errors are thrown as by {@link #validate}, unknown and null
     * fields of the metadata are removed; returns the paths of the unknown ones ({@code metadata.foo}).
     * Everything outside {@code metadata} is left alone.
     */
    public List<String> checkObjectMeta(GroupVersionKind gvk, ObjectNode obj) {
        Walk walk = new Walk(gvk, objectMetaHolder());
        walk.run(obj);
        return List.copyOf(walk.unknown);
    }

    /**
     * The 400 kube-apiserver answers a body of {@code gvk} that cannot be decoded:
     * {@code Widget in version "v1" cannot be handled as a Widget: <detail>}.
     */
    public static ApiException decodeError(GroupVersionKind gvk, String detail) {
        return Walk.decodeError(gvk, detail);
    }

    private volatile Shape.Struct metaHolder;

    private Shape.Struct objectMetaHolder() {
        Shape.Struct holder = metaHolder;
        if (holder == null) {
            synchronized (compiler) {
                holder = new Shape.Struct("custom.v1.Object");
                holder.fields = Map.of("metadata", compiler.definition("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"));
                holder.required = new String[0];
                holder.preserveUnknown = true;
                metaHolder = holder;
            }
        }
        return holder;
    }

    /** Whether {@code gvk} has a schema here; kinds without one (custom resources) are only checked for duplicates. */
    /**
     * Checks only the JSON types of {@code obj} (objects where the schema has structs and maps, arrays
     * where it has lists, scalars of the right kind), as Go's typed decoding does before anything reads
     * the object; {@code obj} is left as it is. For decoders, so that no handler sees {@code "metadata": "x"}.
     * A kind without a schema passes.
     *
     * @throws ApiException 400 BadRequest worded as {@link #validate} words type errors
     */
    public void checkTypes(GroupVersionKind gvk, ObjectNode obj) {
        if (knows(gvk)) {
            new Walk(gvk, root(gvk), false).run(obj);
        }
    }

    public boolean knows(GroupVersionKind gvk) {
        return root(gvk) instanceof Shape.Struct;
    }

    private Shape root(GroupVersionKind gvk) {
        Shape s = roots.get(gvk);
        if (s != null) {
            return s;
        }
        synchronized (compiler) {
            return roots.computeIfAbsent(gvk, k -> {
                String name = definitionName(k);
                return name == null ? Shape.Scalar.ANY : compiler.definition(name);
            });
        }
    }

    /**
     * The definition of a kind: by the Go package naming convention first ({@code io.k8s.api.apps.v1.Deployment}),
     * because the fabric8 metadata gives some groups (apps, batch, autoscaling, policy) as the core group;
     * then by {@link Schemas#definitionName}.
     */
    private String definitionName(GroupVersionKind gvk) {
        String group = gvk.group();
        String pkg = switch (group) {
            case "" -> "io.k8s.api.core";
            case "apiextensions.k8s.io" -> "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions";
            case "apiregistration.k8s.io" -> "io.k8s.kube-aggregator.pkg.apis.apiregistration";
            default -> "io.k8s.api." + (group.indexOf('.') < 0 ? group : group.substring(0, group.indexOf('.')));
        };
        String conventional = pkg + "." + gvk.version() + "." + gvk.kind();
        if (schemas.definition(conventional) != null) {
            return conventional;
        }
        return schemas.definitionName(gvk).orElse(null);
    }
}

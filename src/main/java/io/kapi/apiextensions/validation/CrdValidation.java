package io.kapi.apiextensions.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.apiextensions.Crd;
import io.kapi.apiextensions.schema.DefaultsCheck;
import io.kapi.apiextensions.schema.StructuralCheck;
import io.kapi.apiextensions.schema.StructuralSchema;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.validation.Identifiers;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube-apiserver's validation of a CustomResourceDefinition ({@code ValidateCustomResourceDefinition}
 * and its update variant), in its order and wording: {@code metadata.name} must be
 * {@code spec.names.plural+"."+spec.group}; the group, scope, names, versions (one storage version,
 * unique DNS-1035 names), every version's schema (required, structural, valid defaults, kube's OpenAPI
 * rules, validation rules), subresources, printer columns, selectable fields, conversion; stored
 * versions; API approval of protected groups; {@code preserveUnknownFields}. An update of an
 * established CRD may not change its scope or kind; group and plural never change. Where the old CRD
 * already broke a rule that was added later, an update is not held to it (kube's ratcheting).
 * Object metadata is validated by the store, as for every kind.
 */
public final class CrdValidation {

    private static final String ALLOWED_AT_ROOT = "[Description Type Format Title Maximum ExclusiveMaximum Minimum "
            + "ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items "
            + "Properties ExternalDocs Example XPreserveUnknownFields XValidations]";
    private static final Set<String> ROOT_FIELDS = Set.of("description", "type", "format", "title", "maximum",
            "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems",
            "minItems", "uniqueItems", "multipleOf", "required", "items", "properties", "externalDocs", "example",
            "x-kubernetes-preserve-unknown-fields", "x-kubernetes-validations");

    /** kube's {@code validationOptions}: what an update is held to, from the old object. */
    record Options(boolean requireRecognizedConversionReviewVersion, boolean requireImmutableNames,
                   boolean requireOpenApiSchema, boolean requireValidPropertyType, boolean requireStructuralSchema,
                   boolean requirePrunedDefaults, boolean requireAtomicSetType, boolean requireMapListKeysMapSet,
                   boolean allowInvalidCaBundle) {

        static final Options CREATE = new Options(true, false, true, true, true, true, true, true, true);
    }

    private final SchemaRules.RuleCompiler rules;

    /** @param rules compiles {@code x-kubernetes-validations} (CEL); {@link SchemaRules.RuleCompiler#NONE} to skip */
    public CrdValidation(SchemaRules.RuleCompiler rules) {
        this.rules = rules;
    }

    public CrdValidation() {
        this(SchemaRules.RuleCompiler.NONE);
    }

    /** Validation that compiles and cost-checks the CEL rules through the shared CEL environment. */
    public static CrdValidation withCel() {
        return new CrdValidation(new CelRuleCompiler());
    }

    /** The errors of a new CRD (beyond its object metadata). */
    public List<FieldError> validate(ObjectNode object) {
        Crd crd = new Crd(object);
        List<FieldError> errors = new ArrayList<>();
        name(crd, errors);
        spec(crd, Options.CREATE, errors);
        CrdParts.names(crd.acceptedNames(), "status.acceptedNames", errors);
        storedVersions(crd, errors);
        ApiApproval.validate(crd, null, errors);
        preserveUnknownFields(crd, null, errors);
        return errors;
    }

    /** The errors of an update of {@code old} to {@code object}. */
    public List<FieldError> validateUpdate(ObjectNode object, ObjectNode old) {
        Crd crd = new Crd(object);
        Crd previous = new Crd(old);
        List<FieldError> errors = new ArrayList<>();
        if (!object.path("spec").equals(old.path("spec"))) {
            spec(crd, options(previous), errors);
            immutable(crd, previous, errors);
        }
        CrdParts.names(crd.acceptedNames(), "status.acceptedNames", errors);
        storedVersions(crd, errors);
        ApiApproval.validate(crd, previous, errors);
        preserveUnknownFields(crd, previous, errors);
        return errors;
    }

    private static Options options(Crd old) {
        boolean established = old.isTrue("Established");
        return new Options(recognizedOrNoReviewVersions(old), established, allVersionsHaveSchemas(old),
                !anySchema(old, SchemaFacts::hasInvalidTypes), !anySchema(old, SchemaFacts::nonStructural),
                !anySchema(old, SchemaFacts::hasUnprunedDefaults), !anySchema(old, SchemaFacts::hasNonAtomicSetType),
                !anySchema(old, SchemaFacts::hasInvalidMapListKeysMapSet), !established || invalidCaBundle(old));
    }

    private static boolean recognizedOrNoReviewVersions(Crd old) {
        JsonNode versions = old.webhook().path("conversionReviewVersions");
        if (!versions.isArray() || versions.isEmpty()) {
            return true;
        }
        for (JsonNode v : versions) {
            if (v.asText().equals("v1") || v.asText().equals("v1beta1")) {
                return true;
            }
        }
        return false;
    }

    private static boolean invalidCaBundle(Crd old) {
        String ca = old.webhook().path("clientConfig").path("caBundle").asText("");
        return !ca.isEmpty() && !CrdParts.validCaBundle(ca);
    }

    private static boolean allVersionsHaveSchemas(Crd crd) {
        return crd.versions().stream().allMatch(v -> v.schema() != null);
    }

    private static boolean anySchema(Crd crd, java.util.function.Predicate<JsonNode> test) {
        return crd.versions().stream().map(Crd.Version::schema).anyMatch(s -> s != null && test.test(s));
    }

    private static void name(Crd crd, List<FieldError> errors) {
        String required = crd.names().path("plural").asText("") + "." + crd.group();
        if (!crd.name().equals(required)) {
            errors.add(FieldError.invalid("metadata.name", GoStrings.quote(crd.name()),
                    "must be spec.names.plural+\".\"+spec.group"));
        }
    }

    private void spec(Crd crd, Options opts, List<FieldError> errors) {
        group(crd.group(), errors);
        String scope = crd.spec().path("scope").asText("");
        if (scope.isEmpty()) {
            errors.add(FieldError.required("spec.scope", ""));
        } else if (!scope.equals("Cluster") && !scope.equals("Namespaced")) {
            errors.add(new FieldError(FieldError.Type.NOT_SUPPORTED, "spec.scope", GoStrings.quote(scope),
                    SchemaRules.supported(List.of("Cluster", "Namespaced"))));
        }
        Hoisting hoisting = Hoisting.of(crd);
        boolean requireStructural = opts.requireStructuralSchema() || !crd.preserveUnknownFields();
        schemasPresent(crd, hoisting, opts, errors);
        boolean defaults = anySchema(crd, SchemaFacts::hasDefaults);
        if (defaults && crd.preserveUnknownFields()) {
            errors.add(FieldError.invalid("spec.preserveUnknownFields", "true", "must be false in order to use defaults in the schema"));
        }
        requireStructural |= defaults || anySchema(crd, SchemaFacts::hasKubernetesExtensions);
        Options effective = requireStructural == opts.requireStructuralSchema() ? opts : withStructural(opts);
        versions(crd, hoisting, effective, errors);
        names(crd, errors);
        hoisted(crd, hoisting, effective, errors);
        String strategy = crd.conversionStrategy();
        if (!strategy.equals("None") && crd.preserveUnknownFields()) {
            errors.add(FieldError.invalid("spec.conversion.strategy", GoStrings.quote(strategy),
                    "must be None if spec.preserveUnknownFields is true"));
        }
        CrdParts.conversion(crd.spec().path("conversion"), opts.requireRecognizedConversionReviewVersion(),
                opts.allowInvalidCaBundle(), errors);
    }

    private static Options withStructural(Options o) {
        return new Options(o.requireRecognizedConversionReviewVersion(), o.requireImmutableNames(), o.requireOpenApiSchema(),
                o.requireValidPropertyType(), true, o.requirePrunedDefaults(), o.requireAtomicSetType(),
                o.requireMapListKeysMapSet(), o.allowInvalidCaBundle());
    }

    private static void group(String group, List<FieldError> errors) {
        if (group.isEmpty()) {
            errors.add(FieldError.required("spec.group", ""));
            return;
        }
        List<String> errs = Identifiers.dns1123Subdomain(group);
        if (!errs.isEmpty()) {
            errors.add(FieldError.invalid("spec.group", GoStrings.quote(group), String.join(",", errs)));
        } else if (!group.contains(".")) {
            errors.add(FieldError.invalid("spec.group", GoStrings.quote(group), "should be a domain with at least one dot"));
        }
    }

    private static void schemasPresent(Crd crd, Hoisting hoisting, Options opts, List<FieldError> errors) {
        boolean hoistedSchema = hoisting.schema() && Hoisting.present(crd, "schema");
        if (hoistedSchema) {
            return;
        }
        for (Crd.Version v : crd.versions()) {
            String at = "spec.versions[" + v.index() + "].schema.openAPIV3Schema";
            if (v.schema() == null && opts.requireOpenApiSchema()) {
                errors.add(FieldError.required(at, "schemas are required"));
            } else if (v.schema() == null && !crd.preserveUnknownFields() && v.served()) {
                errors.add(FieldError.required(at, "because otherwise all fields are pruned"));
            }
        }
    }

    private void versions(Crd crd, Hoisting hoisting, Options opts, List<FieldError> errors) {
        int storage = 0;
        Set<String> names = new HashSet<>();
        boolean unique = true;
        boolean anyStatus = false;
        for (Crd.Version v : crd.versions()) {
            storage += v.storage() ? 1 : 0;
            unique &= names.add(v.name());
            anyStatus |= v.hasStatus();
            String at = "spec.versions[" + v.index() + "]";
            List<String> errs = Identifiers.dns1035Label(v.name());
            if (!errs.isEmpty()) {
                errors.add(FieldError.invalid(at + ".name", GoStrings.quote(v.name()), String.join(",", errs)));
            }
            CrdParts.deprecationWarning(v.node(), at, errors);
            if (!hoisting.schema() && v.schema() != null) {
                schema(v.schema(), v.hasStatus(), opts, at + ".schema", errors);
            }
            if (!hoisting.subresources()) {
                CrdParts.subresources(v.subresources(), at + ".subresources", errors);
            }
            if (!hoisting.columns()) {
                columns(v.printerColumns(), at + ".additionalPrinterColumns", errors);
            }
            if (!hoisting.selectable() && v.selectableFields().isArray() && !v.selectableFields().isEmpty()) {
                if (v.schema() == null) {
                    errors.add(FieldError.invalid(at + ".selectableFields", "\"\"",
                            "selectableFields may only be set when version.schema.openAPIV3Schema is not included"));
                } else {
                    CrdParts.selectableFields(v.selectableFields(), StructuralSchema.of(v.schema()),
                            at + ".selectableFields", errors);
                }
            }
        }
        String versionsValue = GoStructs.versions(crd, hoisting);
        if (!unique) {
            errors.add(FieldError.invalid("spec.versions", versionsValue, "must contain unique version names"));
        }
        if (storage != 1) {
            errors.add(FieldError.invalid("spec.versions", versionsValue, "must have exactly one version marked as storage version"));
        }
    }

    private static void names(Crd crd, List<FieldError> errors) {
        for (String field : List.of("plural", "singular", "kind", "listKind")) {
            if (crd.names().path(field).asText("").isEmpty()) {
                errors.add(FieldError.required("spec.names." + field, ""));
            }
        }
        CrdParts.names(crd.names(), "spec.names", errors);
    }

    /** The parts every version shares, validated once at the top of the spec as kube does. */
    private void hoisted(Crd crd, Hoisting hoisting, Options opts, List<FieldError> errors) {
        List<Crd.Version> versions = crd.versions();
        if (versions.isEmpty()) {
            return;
        }
        Crd.Version first = versions.getFirst();
        boolean anyStatus = versions.stream().anyMatch(Crd.Version::hasStatus);
        if (hoisting.schema() && first.schema() != null) {
            schema(first.schema(), anyStatus, opts, "spec.validation", errors);
        }
        if (hoisting.subresources()) {
            CrdParts.subresources(first.subresources(), "spec.subresources", errors);
        }
        if (hoisting.columns()) {
            columns(first.printerColumns(), "spec.additionalPrinterColumns", errors);
        }
        if (hoisting.selectable() && first.selectableFields().isArray() && !first.selectableFields().isEmpty()) {
            if (first.schema() == null) {
                errors.add(FieldError.invalid("spec.selectableFields", "\"\"",
                        "selectableFields may only be set when validations.schema is included"));
            } else {
                CrdParts.selectableFields(first.selectableFields(), StructuralSchema.of(first.schema()),
                        "spec.selectableFields", errors);
            }
        }
    }

    private static void columns(JsonNode columns, String path, List<FieldError> errors) {
        for (int i = 0; i < columns.size(); i++) {
            CrdParts.column(columns.get(i), path + "[" + i + "]", errors);
        }
    }

    /** kube's {@code validateCustomResourceDefinitionValidation} of one schema at {@code path} (…{@code .schema}). */
    private void schema(JsonNode schema, boolean statusEnabled, Options opts, String path, List<FieldError> errors) {
        String at = path + ".openAPIV3Schema";
        List<FieldError> found = new ArrayList<>();
        if (statusEnabled) {
            rootWithStatus(schema, at, found);
        }
        if (schema.path("nullable").asBoolean(false)) {
            found.add(FieldError.forbidden(at + ".nullable", "nullable cannot be true at the root"));
        }
        StructuralSchema structural = StructuralSchema.of(schema);
        boolean structuralOk = false;
        if (opts.requireStructuralSchema()) {
            List<FieldError> structuralErrors = StructuralCheck.check(at, structural);
            if (!structuralErrors.isEmpty()) {
                found.addAll(structuralErrors);
            } else {
                List<FieldError> defaults = DefaultsCheck.check(at, structural, opts.requirePrunedDefaults());
                found.addAll(defaults);
                structuralOk = defaults.isEmpty();
            }
        }
        SchemaRules.Context ctx = new SchemaRules.Context(null, false, opts.requireValidPropertyType(),
                opts.requireAtomicSetType(), opts.requireMapListKeysMapSet(), null);
        found.addAll(new SchemaRules(structuralOk ? rules : SchemaRules.RuleCompiler.NONE).validate(schema, at, ctx, true));
        errors.addAll(found);
    }

    private static void rootWithStatus(JsonNode schema, String at, List<FieldError> errors) {
        for (Map.Entry<String, JsonNode> e : schema.properties()) {
            JsonNode v = e.getValue();
            if (v.isNull() || (v.isBoolean() && !v.asBoolean()) || (v.isTextual() && v.asText().isEmpty())) {
                continue;
            }
            if (e.getKey().equals("type")) {
                if (!v.asText().equals("object")) {
                    errors.add(FieldError.invalid(at + ".type", GoStrings.quote(v.asText()),
                            "only \"object\" is allowed as the type at the root of the schema if the status subresource is enabled"));
                    return;
                }
                continue;
            }
            if (!ROOT_FIELDS.contains(e.getKey())) {
                errors.add(FieldError.invalid(at, GoStructs.schema(schema), "only " + ALLOWED_AT_ROOT
                        + " fields are allowed at the root of the schema if the status subresource is enabled"));
                return;
            }
        }
    }

    private static void immutable(Crd crd, Crd old, List<FieldError> errors) {
        if (options(old).requireImmutableNames()) {
            immutable("spec.scope", crd.spec().path("scope"), old.spec().path("scope"), errors);
            immutable("spec.names.kind", crd.names().path("kind"), old.names().path("kind"), errors);
        }
        immutable("spec.group", crd.spec().path("group"), old.spec().path("group"), errors);
        immutable("spec.names.plural", crd.names().path("plural"), old.names().path("plural"), errors);
    }

    private static void immutable(String path, JsonNode value, JsonNode old, List<FieldError> errors) {
        if (!value.equals(old)) {
            errors.add(FieldError.invalid(path, GoStrings.quote(value.asText("")), "field is immutable"));
        }
    }

    /** kube's {@code ValidateCustomResourceDefinitionStoredVersions}. */
    private static void storedVersions(Crd crd, List<FieldError> errors) {
        List<String> stored = crd.storedVersions();
        JsonNode node = crd.object().path("status").path("storedVersions");
        String value = node.isArray() ? GoStructs.strings(node) : "[]string(nil)";
        if (stored.isEmpty()) {
            errors.add(FieldError.invalid("status.storedVersions", value, "must have at least one stored version"));
            return;
        }
        Map<String, Integer> left = new HashMap<>();
        for (int i = 0; i < stored.size(); i++) {
            left.put(stored.get(i), i);
        }
        for (Crd.Version v : crd.versions()) {
            boolean has = left.containsKey(v.name());
            if (v.storage() && !has) {
                errors.add(FieldError.invalid("status.storedVersions", value, "must have the storage version " + v.name()));
            }
            left.remove(v.name());
        }
        left.entrySet().stream().sorted(Map.Entry.comparingByValue()).forEach(e -> errors.add(FieldError.invalid(
                "status.storedVersions[" + e.getValue() + "]", GoStrings.quote(e.getKey()),
                "missing from spec.versions; %1$s was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in %1$s and removes %1$s from status.storedVersions"
                        .formatted(e.getKey()))));
    }

    private static void preserveUnknownFields(Crd crd, Crd old, List<FieldError> errors) {
        if (old != null && old.preserveUnknownFields()) {
            return;
        }
        if (crd.preserveUnknownFields()) {
            errors.add(FieldError.invalid("spec.preserveUnknownFields", "true",
                    "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead"));
        }
    }
}

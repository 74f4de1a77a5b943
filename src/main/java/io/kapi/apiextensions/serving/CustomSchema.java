package io.kapi.apiextensions.serving;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.apiextensions.schema.Defaulting;
import io.kapi.apiextensions.schema.Pruning;
import io.kapi.apiextensions.schema.StructuralSchema;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.apply.FieldManager;
import io.kapi.machinery.validation.FieldValidation;
import io.kapi.machinery.validation.SchemaValidator;
import io.kapi.machinery.validation.ValidationResult;
import io.kapi.registry.KindSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * How a written custom resource of one served version is decoded, as kube's {@code schemaCoercingDecoder}
 * and its defaulter: {@code metadata} checked as Go decodes {@code ObjectMeta}, fields the structural
 * schema does not specify pruned (their paths reported as unknown fields by field validation), non-nullable
 * nulls without defaults dropped, then the schema's defaults applied.
 *
 * @param schema the version's structural schema, or null to keep everything ({@code preserveUnknownFields})
 */
record CustomSchema(GroupVersionKind gvk, StructuralSchema schema, SchemaValidator metadata, FieldManager fieldManager)
        implements KindSchema {

    @Override
    public ValidationResult decode(ObjectNode object, FieldValidation mode, List<String> duplicateFields) {
        List<String> unknown = new ArrayList<>(metadata.checkObjectMeta(gvk, object));
        if (schema != null) {
            unknown.addAll(Pruning.prune(object, schema, true));
            Pruning.pruneNonNullableNulls(object, schema);
            Defaulting.apply(object, schema);
        }
        if (mode == FieldValidation.IGNORE || (unknown.isEmpty() && duplicateFields.isEmpty())) {
            return ValidationResult.CLEAN;
        }
        List<String> problems = new ArrayList<>(duplicateFields);
        unknown.forEach(path -> problems.add("unknown field " + GoStrings.quote(path)));
        if (mode == FieldValidation.STRICT) {
            throw SchemaValidator.decodeError(gvk, "strict decoding error: " + String.join(", ", problems));
        }
        return new ValidationResult(FieldValidation.warnings(problems), List.of());
    }
}

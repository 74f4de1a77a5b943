package io.kapi.endpoint;

import io.kapi.endpoint.codec.Decoded;
import io.kapi.endpoint.handlers.SchemaCheck;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.validation.FieldValidation;
import io.kapi.machinery.validation.SchemaValidator;
import io.kapi.machinery.validation.ValidationResult;
import java.util.List;

/**
 * Validates request bodies against their kind's schema under the {@code fieldValidation} the request
 * asks for ({@code Warn} by default, as kube-apiserver): wrong types fail here, unknown and duplicate
 * fields fail or warn here. Missing required fields are checked later, by the store, once defaults
 * have been applied ({@link io.kapi.assembly} wires that), as kube-apiserver validates defaulted objects.
 */
public record SchemaFieldValidation(SchemaValidator validator) implements SchemaCheck {

    @Override
    public List<String> check(RestRequest request, ApiResource resource, Decoded body) {
        String optionsKind = switch (request.method()) {
            case "PUT" -> "UpdateOptions";
            case "PATCH" -> "PatchOptions";
            default -> "CreateOptions";
        };
        FieldValidation mode = FieldValidation.parse(request.param("fieldValidation"), optionsKind);
        ValidationResult result = validator.validate(resource.gvk(), body.object(), mode, body.duplicateFields());
        return result.warnings();
    }
}

package io.kapi.assembly;

import io.kapi.machinery.FieldError;
import io.kapi.machinery.validation.FieldValidation;
import io.kapi.machinery.validation.NameRule;
import io.kapi.machinery.validation.ObjectMetaValidator;
import io.kapi.machinery.validation.SchemaValidator;
import io.kapi.registry.MetadataValidation;
import java.util.ArrayList;
import java.util.List;

/**
 * The validation every built-in kind shares, run by the store on the defaulted object: kube-apiserver's
 * ObjectMeta rules with each resource's name rule, and the schema's required fields.
 */
final class MetadataRules {

    private MetadataRules() {
    }

    static MetadataValidation create(SchemaValidator schema) {
        return (resource, object) -> {
            List<FieldError> errors = new ArrayList<>(ObjectMetaValidator.validate(object.get("metadata"),
                    resource.namespaced(), NameRule.forResource(resource.group(), resource.name())));
            errors.addAll(schema.validate(resource.gvk(), object, FieldValidation.IGNORE, List.of()).errors());
            return errors;
        };
    }
}

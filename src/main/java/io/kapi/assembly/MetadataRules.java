package io.kapi.assembly;

import io.kapi.machinery.validation.NameRule;
import io.kapi.machinery.validation.ObjectMetaValidator;
import io.kapi.registry.MetadataValidation;

/**
 * The validation every built-in kind shares, run by the store on the defaulted object: kube-apiserver's
 * ObjectMeta rules with each resource's name rule. (The schema's required fields are noted when the
 * store decodes a write, and checked again then.)
 */
final class MetadataRules {

    private MetadataRules() {
    }

    static MetadataValidation create() {
        return (resource, object) -> ObjectMetaValidator.validate(object.get("metadata"), resource.namespaced(),
                NameRule.forResource(resource.group(), resource.name()));
    }
}

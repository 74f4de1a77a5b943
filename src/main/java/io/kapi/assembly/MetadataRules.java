package io.kapi.assembly;

import io.kapi.machinery.validation.NameRule;
import io.kapi.machinery.validation.ObjectMetaValidator;
import io.kapi.registry.MetadataValidation;

/** The metadata validation of every built-in kind: kube-apiserver's ObjectMeta rules with each resource's name rule. */
final class MetadataRules {

    private MetadataRules() {
    }

    static MetadataValidation create() {
        return (resource, object) -> ObjectMetaValidator.validate(object.get("metadata"), resource.namespaced(),
                NameRule.forResource(resource.group(), resource.name()));
    }
}

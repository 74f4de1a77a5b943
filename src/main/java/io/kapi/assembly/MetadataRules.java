package io.kapi.assembly;

import io.kapi.machinery.FieldError;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.validation.NameRule;
import io.kapi.registry.MetadataValidation;
import java.util.ArrayList;
import java.util.List;

/** The metadata validation of every built-in kind: its name (or generateName) rule. */
final class MetadataRules {

    private MetadataRules() {
    }

    static MetadataValidation create() {
        return (resource, object) -> {
            ObjectMeta meta = ObjectMeta.of(object);
            NameRule rule = NameRule.forResource(resource.group(), resource.name());
            List<FieldError> errors = new ArrayList<>();
            if (meta.name().isEmpty() && meta.generateName().isEmpty()) {
                errors.add(FieldError.required("metadata.name", "name or generateName is required"));
            } else if (!meta.name().isEmpty()) {
                for (String m : rule.check(meta.name(), false)) {
                    errors.add(FieldError.invalid("metadata.name", quote(meta.name()), m));
                }
            } else {
                for (String m : rule.check(meta.generateName(), true)) {
                    errors.add(FieldError.invalid("metadata.generateName", quote(meta.generateName()), m));
                }
            }
            return errors;
        };
    }

    private static String quote(String s) {
        return "\"" + s + "\"";
    }
}

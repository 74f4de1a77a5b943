package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.FieldError;
import io.kapi.registry.KindValidator;
import java.util.List;

/**
 * Rules whose kube strategy runs the same check twice (a {@code Validate*Update} that calls {@code Validate*}
 * after the strategy already did, or two functions that both require a field): identical errors are reported
 * once, as {@code field.ErrorList.ToAggregate} prints them in the 422 message.
 */
record Aggregated(Rules rules) implements KindValidator {

    @Override
    public List<FieldError> validate(ObjectNode object) {
        return rules.validate(object).stream().distinct().toList();
    }

    @Override
    public List<FieldError> validateUpdate(ObjectNode object, ObjectNode old) {
        return rules.validateUpdate(object, old).stream().distinct().toList();
    }
}

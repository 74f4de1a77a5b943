package io.kapi.apis.subresources;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.FieldError;
import io.kapi.registry.Strategy;
import io.kapi.registry.StrategyDecorator;
import java.util.List;

/**
 * Stores the body exactly as a subresource handler built it from the stored object: the handler has
 * already decided what changes and checked it, so the kind's own update rules (which would refuse
 * e.g. a changed {@code spec.nodeName}) are skipped. Metadata rules of the store still apply.
 */
record TakeBody(Strategy base) implements StrategyDecorator {

    @Override
    public void applyDefaults(ObjectNode object) {
    }

    @Override
    public void prepareForUpdate(ObjectNode object, ObjectNode old) {
    }

    @Override
    public List<FieldError> validateUpdate(ObjectNode object, ObjectNode old) {
        return List.of();
    }
}

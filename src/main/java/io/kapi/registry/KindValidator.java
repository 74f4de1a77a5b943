package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.FieldError;
import java.util.List;

/**
 * The validation kube-apiserver's hand-written {@code validation.Validate*} functions apply to one
 * kind beyond its schema (and beyond the ObjectMeta rules every kind shares), with its field paths
 * and messages.
 */
public interface KindValidator {

    List<FieldError> validate(ObjectNode object);

    /** Errors of an update, including changes to immutable fields. */
    List<FieldError> validateUpdate(ObjectNode object, ObjectNode old);

    KindValidator NONE = new KindValidator() {
        @Override
        public List<FieldError> validate(ObjectNode object) {
            return List.of();
        }

        @Override
        public List<FieldError> validateUpdate(ObjectNode object, ObjectNode old) {
            return List.of();
        }
    };
}

package io.kapi.apiextensions.serving;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.apiextensions.schema.ListTypes;
import io.kapi.apiextensions.schema.StructuralSchema;
import io.kapi.apiextensions.schema.ValueValidator;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.ObjectMeta;
import io.kapi.registry.Strategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The strategy of one served version of a custom resource, as kube's {@code customResourceStrategy}:
 * generation 1 on create and +1 when anything but metadata (and, with the status subresource, status)
 * changes; with the status subresource the main resource cannot write {@code status} (dropped on
 * create, kept from the stored object on update); validation against the version's structural schema
 * (types, formats, enums, bounds, required fields), its list types and its CEL rules
 * ({@link ValidationRules}; transition rules on updates). While the definition is
 * terminating, creates are refused with kube's 405.
 *
 * @param schema the version's structural schema, or null when it has none (everything is accepted)
 */
public record CustomResourceStrategy(boolean statusEnabled, StructuralSchema schema, boolean terminating,
                                     ValidationRules rules) implements Strategy {

    public CustomResourceStrategy(boolean statusEnabled, StructuralSchema schema, boolean terminating) {
        this(statusEnabled, schema, terminating, new ValidationRules());
    }

    @Override
    public void prepareForCreate(ObjectNode object) {
        if (terminating) {
            throw ApiException.methodNotAllowed("create not allowed while custom resource definition is terminating");
        }
        if (statusEnabled) {
            object.remove("status");
        }
        ObjectMeta.of(object).generation(1);
    }

    @Override
    public void prepareForUpdate(ObjectNode object, ObjectNode old) {
        if (statusEnabled) {
            JsonNode status = old.get("status");
            if (status == null) {
                object.remove("status");
            } else {
                object.set("status", status.deepCopy());
            }
        }
        long generation = ObjectMeta.of(old).generation();
        boolean changed = !Objects.equals(content(object), content(old));
        ObjectMeta.of(object).generation(changed ? generation + 1 : generation);
    }

    /** What counts for the generation: everything but metadata (and status when it has its own endpoint). */
    private ObjectNode content(ObjectNode object) {
        ObjectNode copy = object.objectNode();
        object.properties().forEach(e -> {
            if (!e.getKey().equals("metadata") && !(statusEnabled && e.getKey().equals("status"))) {
                copy.set(e.getKey(), e.getValue());
            }
        });
        return copy;
    }

    @Override
    public List<FieldError> validate(ObjectNode object) {
        return check(object, null);
    }

    @Override
    public List<FieldError> validateUpdate(ObjectNode object, ObjectNode old) {
        return check(object, old);
    }

    private List<FieldError> check(ObjectNode object, ObjectNode old) {
        if (schema == null) {
            return List.of();
        }
        List<FieldError> errors = new ArrayList<>(ValueValidator.validate("", object, schema));
        errors.addAll(ListTypes.validate("", object, schema));
        if (errors.isEmpty()) {
            errors.addAll(rules.validate(object, old, schema));
        }
        return errors;
    }
}

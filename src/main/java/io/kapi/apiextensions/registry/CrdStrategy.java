package io.kapi.apiextensions.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.apiextensions.Crd;
import io.kapi.apiextensions.validation.CrdValidation;
import io.kapi.machinery.Conditions;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.Json;
import io.kapi.registry.DeleteOptions;
import io.kapi.registry.Deletion;
import io.kapi.registry.Strategy;
import io.kapi.registry.StrategyDecorator;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The strategy of {@code customresourcedefinitions}, as kube-apiserver's: a new CRD starts with an empty
 * status holding its storage version in {@code storedVersions}; updates keep the status (the
 * {@code status} subresource writes it) and add a new storage version to {@code storedVersions};
 * validation is {@link CrdValidation}'s. The first delete does not remove the CRD: it adds the
 * {@code customresourcecleanup.apiextensions.k8s.io} finalizer and sets {@code Terminating}, and the
 * finalizing controller deletes the custom resources before it lets the CRD go.
 *
 * @param base the built-in generic strategy (defaults, generation)
 */
public record CrdStrategy(Strategy base, CrdValidation validation, Clock clock) implements StrategyDecorator {

    /**
     * kube's {@code SetDefaults_CustomResourceDefinition}: {@code singular} is the lower-case kind,
     * {@code listKind} the kind with {@code List}, conversion {@code None}.
     */
    @Override
    public void applyDefaults(ObjectNode crd) {
        base.applyDefaults(crd);
        if (!(crd.get("spec") instanceof ObjectNode spec)) {
            return;
        }
        if (spec.get("names") instanceof ObjectNode names && names.path("kind").isTextual()) {
            String kind = names.path("kind").asText();
            if (names.path("singular").asText("").isEmpty()) {
                names.put("singular", kind.toLowerCase(java.util.Locale.ROOT));
            }
            if (names.path("listKind").asText("").isEmpty() && !kind.isEmpty()) {
                names.put("listKind", kind + "List");
            }
        }
        if (!spec.has("conversion") || spec.get("conversion").isNull()) {
            spec.putObject("conversion").put("strategy", "None");
        }
    }

    @Override
    public void prepareForCreate(ObjectNode crd) {
        base.prepareForCreate(crd);
        ObjectNode status = Json.object();
        ObjectNode accepted = status.putObject("acceptedNames");
        accepted.put("plural", "");
        accepted.put("kind", "");
        status.putArray("storedVersions");
        crd.set("status", status);
        addStorageVersion(crd);
    }

    @Override
    public void prepareForUpdate(ObjectNode crd, ObjectNode old) {
        base.prepareForUpdate(crd, old);
        JsonNode status = old.get("status");
        if (status == null) {
            crd.remove("status");
        } else {
            crd.set("status", status.deepCopy());
        }
        addStorageVersion(crd);
    }

    private static void addStorageVersion(ObjectNode crd) {
        String storage = new Crd(crd).storageVersion();
        if (storage.isEmpty()) {
            return;
        }
        ArrayNode stored = crd.with("status").withArray("storedVersions");
        for (JsonNode v : stored) {
            if (v.asText().equals(storage)) {
                return;
            }
        }
        stored.add(storage);
    }

    @Override
    public List<FieldError> validate(ObjectNode crd) {
        List<FieldError> errors = new ArrayList<>(base.validate(crd));
        errors.addAll(validation.validate(crd));
        return errors;
    }

    @Override
    public List<FieldError> validateUpdate(ObjectNode crd, ObjectNode old) {
        List<FieldError> errors = new ArrayList<>(base.validateUpdate(crd, old));
        errors.addAll(validation.validateUpdate(crd, old));
        return errors;
    }

    @Override
    public Deletion beforeDelete(ObjectNode crd, DeleteOptions options) {
        Crd view = new Crd(crd);
        if (!view.deleting()) {
            if (!view.hasFinalizer(Crd.FINALIZER)) {
                crd.with("metadata").withArray("finalizers").add(Crd.FINALIZER);
            }
            Conditions.set(crd, "Terminating", "True", "InstanceDeletionPending",
                    "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon", clock.instant());
        }
        return base.beforeDelete(crd, options);
    }
}

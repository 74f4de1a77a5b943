package io.kapi.apis;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import io.kapi.registry.DeleteOptions;
import io.kapi.registry.Deletion;
import io.kapi.registry.Strategy;
import io.kapi.registry.StrategyDecorator;
import java.util.List;

/**
 * Namespaces, as kube-apiserver's namespace strategy: created {@code Active} with the
 * {@code kubernetes} finalizer and the {@code kubernetes.io/metadata.name} label; an update keeps the
 * status and finalizers (they change through {@code /status} and {@code /finalize}).
 */
public record NamespaceStrategy(Strategy base) implements StrategyDecorator {

    static final String NAME_LABEL = "kubernetes.io/metadata.name";

    /**
     * A namespace with spec finalizers turns {@code Terminating} and waits for its finalization (that the
     * system namespaces cannot be deleted is the NamespaceLifecycle admission plugin's rule).
     */
    @Override
    public Deletion beforeDelete(ObjectNode object, DeleteOptions options) {
        if (!object.path("spec").path("finalizers").isEmpty()) {
            object.with("status").put("phase", "Terminating");
            return new Deletion.Held();
        }
        return base.beforeDelete(object, options);
    }

    @Override
    public void prepareForCreate(ObjectNode object) {
        base.prepareForCreate(object);
        ObjectNode spec = object.with("spec");
        ArrayNode finalizers = spec.withArray("finalizers");
        boolean present = false;
        for (var f : finalizers) {
            present |= f.asText().equals("kubernetes");
        }
        if (!present) {
            finalizers.add("kubernetes");
        }
        object.putObject("status").put("phase", "Active");
    }

    @Override
    public void prepareForUpdate(ObjectNode object, ObjectNode old) {
        base.prepareForUpdate(object, old);
        if (old.has("spec")) {
            object.set("spec", old.get("spec").deepCopy());
        }
        if (old.has("status")) {
            object.set("status", old.get("status").deepCopy());
        }
    }

    @Override
    public void canonicalize(ObjectNode object) {
        ObjectMeta meta = ObjectMeta.of(object);
        meta.node().with("labels").put(NAME_LABEL, meta.name());
    }
}

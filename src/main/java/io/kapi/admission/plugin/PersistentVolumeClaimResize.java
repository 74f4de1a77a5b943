package io.kapi.admission.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.ObjectLookup;
import io.kapi.admission.Operation;
import io.kapi.admission.ValidatingPlugin;
import io.kapi.machinery.quantity.Quantity;

/**
 * kube-apiserver's default-on {@code PersistentVolumeClaimResize}: a claim's storage request may grow only
 * when the claim is bound and its StorageClass (the same before and after) sets
 * {@code allowVolumeExpansion: true}; otherwise the update is Forbidden with kube's words.
 */
public record PersistentVolumeClaimResize(ObjectLookup lookup) implements ValidatingPlugin {

    @Override
    public String name() {
        return "PersistentVolumeClaimResize";
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.UPDATE;
    }

    @Override
    public void validate(Attributes a) {
        if (!a.isMain("", "persistentvolumeclaims") || a.object() == null || a.oldObject() == null) {
            return;
        }
        if (storage(a.object()).compareTo(storage(a.oldObject())) <= 0) {
            return;
        }
        if (!"Bound".equals(a.oldObject().path("status").path("phase").asText(""))) {
            throw a.forbidden("Only bound persistent volume claims can be expanded");
        }
        if (!allowResize(storageClass(a.object()), storageClass(a.oldObject()))) {
            throw a.forbidden("only dynamically provisioned pvc can be resized and "
                    + "the storageclass that provisions the pvc must support resize");
        }
    }

    private boolean allowResize(String now, String before) {
        if (now.isEmpty() || !now.equals(before)) {
            return false;
        }
        return lookup.get(DefaultStorageClass.STORAGE_CLASSES, "", now)
                .map(sc -> sc.path("allowVolumeExpansion").asBoolean(false)).orElse(false);
    }


    private static Quantity storage(JsonNode pvc) {
        Quantity q = Quantity.parseOrNull(pvc.path("spec").path("resources").path("requests").path("storage").asText(""));
        return q == null ? Quantity.ZERO : q;
    }

    /** The beta annotation wins over {@code spec.storageClassName}, as kube's {@code GetPersistentVolumeClaimClass}. */
    static String storageClass(JsonNode pvc) {
        JsonNode annotation = pvc.path("metadata").path("annotations").get(DefaultStorageClass.BETA_CLASS_ANNOTATION);
        if (annotation != null && annotation.isTextual()) {
            return annotation.asText();
        }
        return pvc.path("spec").path("storageClassName").asText("");
    }
}

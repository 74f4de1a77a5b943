package io.kapi.admission.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.MutatingPlugin;
import io.kapi.admission.Operation;

/**
 * kube-apiserver's default-on {@code StorageObjectInUseProtection}: every new PersistentVolumeClaim gets the
 * {@code kubernetes.io/pvc-protection} finalizer and every new PersistentVolume {@code kubernetes.io/pv-protection},
 * so that one in use is not removed (the controller-manager drops the finalizer once it is unused).
 */
public record StorageObjectInUseProtection() implements MutatingPlugin {

    static final String PVC_FINALIZER = "kubernetes.io/pvc-protection";
    static final String PV_FINALIZER = "kubernetes.io/pv-protection";

    @Override
    public String name() {
        return "StorageObjectInUseProtection";
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.CREATE;
    }

    @Override
    public void admit(Attributes a) {
        if (a.object() == null) {
            return;
        }
        if (a.isMain("", "persistentvolumeclaims")) {
            addFinalizer(a.object(), PVC_FINALIZER);
        } else if (a.isMain("", "persistentvolumes")) {
            addFinalizer(a.object(), PV_FINALIZER);
        }
    }

    private static void addFinalizer(ObjectNode object, String finalizer) {
        ObjectNode meta = object.get("metadata") instanceof ObjectNode m ? m : object.putObject("metadata");
        ArrayNode finalizers = meta.get("finalizers") instanceof ArrayNode f ? f : meta.putArray("finalizers");
        for (JsonNode f : finalizers) {
            if (finalizer.equals(f.asText())) {
                return;
            }
        }
        finalizers.add(finalizer);
    }
}

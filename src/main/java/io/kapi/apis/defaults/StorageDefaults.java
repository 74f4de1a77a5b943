package io.kapi.apis.defaults;

import static io.kapi.apis.defaults.Fields.bool;
import static io.kapi.apis.defaults.Fields.child;
import static io.kapi.apis.defaults.Fields.ensure;
import static io.kapi.apis.defaults.Fields.textPointer;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** storage.k8s.io/v1 defaults. */
public final class StorageDefaults {

    private StorageDefaults() {
    }

    public static void storageClass(ObjectNode object) {
        textPointer(object, "reclaimPolicy", "Delete");
        textPointer(object, "volumeBindingMode", "Immediate");
    }

    public static void csiDriver(ObjectNode object) {
        ObjectNode spec = ensure(object, "spec");
        bool(spec, "attachRequired", true);
        bool(spec, "podInfoOnMount", false);
        bool(spec, "storageCapacity", false);
        textPointer(spec, "fsGroupPolicy", "ReadWriteOnceWithFSType");
        if (Fields.empty(spec, "volumeLifecycleModes")) {
            spec.putArray("volumeLifecycleModes").add("Persistent");
        }
        bool(spec, "requiresRepublish", false);
        bool(spec, "seLinuxMount", false);
    }

    /** An inline volume spec migrated from a pod gets the persistent volume source defaults. */
    public static void volumeAttachment(ObjectNode object) {
        ObjectNode inline = child(child(child(object, "spec"), "source"), "inlineVolumeSpec");
        if (inline != null) {
            Volumes.persistentSource(inline);
        }
    }
}

package io.kapi.admission.plugin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.MutatingPlugin;
import io.kapi.admission.ObjectLookup;
import io.kapi.admission.Operation;
import io.kapi.machinery.GroupVersionResource;
import java.util.List;

/**
 * kube-apiserver's default-on {@code DefaultStorageClass}: a new PersistentVolumeClaim that names no class
 * (neither {@code spec.storageClassName}, even empty, nor the beta annotation) gets the default StorageClass's
 * name, when there is one.
 */
public record DefaultStorageClass(ObjectLookup lookup) implements MutatingPlugin {

    static final GroupVersionResource STORAGE_CLASSES = new GroupVersionResource("storage.k8s.io", "v1", "storageclasses");
    static final String BETA_CLASS_ANNOTATION = "volume.beta.kubernetes.io/storage-class";
    private static final List<String> DEFAULT_ANNOTATIONS = List.of("storageclass.kubernetes.io/is-default-class",
            "storageclass.beta.kubernetes.io/is-default-class");

    @Override
    public String name() {
        return "DefaultStorageClass";
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.CREATE;
    }

    @Override
    public void admit(Attributes a) {
        if (!a.isMain("", "persistentvolumeclaims") || a.object() == null) {
            return;
        }
        ObjectNode pvc = a.object();
        if (pvc.path("metadata").path("annotations").has(BETA_CLASS_ANNOTATION)
                || pvc.path("spec").hasNonNull("storageClassName")) {
            return;
        }
        DefaultClasses.newest(lookup.list(STORAGE_CLASSES, ""), DEFAULT_ANNOTATIONS).ifPresent(name ->
                (pvc.get("spec") instanceof ObjectNode s ? s : pvc.putObject("spec")).put("storageClassName", name));
    }
}

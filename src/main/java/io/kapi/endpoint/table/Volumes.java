package io.kapi.endpoint.table;

import static io.kapi.endpoint.table.Columns.age;
import static io.kapi.endpoint.table.Columns.nameColumn;
import static io.kapi.registry.table.Column.string;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoValues;
import io.kapi.registry.table.Doc;
import io.kapi.registry.table.KindPrinter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The tables of persistent volumes and claims. Quantities print as stored (kube prints them canonicalised). */
public final class Volumes {

    private static final String BETA_CLASS = "volume.beta.kubernetes.io/storage-class";
    private static final String UNSET = "<unset>";

    private Volumes() {
    }

    public static KindPrinter persistentVolumes() {
        return KindPrinter.of(nameColumn(),
                string("Capacity", Doc.core("PersistentVolumeSpec", "capacity"),
                        (o, now) -> GoValues.textOr(o, "0", "spec", "capacity", "storage")),
                string("Access Modes", Doc.core("PersistentVolumeSpec", "accessModes"),
                        (o, now) -> accessModes(GoValues.at(o, "spec", "accessModes"))),
                string("Reclaim Policy", Doc.core("PersistentVolumeSpec", "persistentVolumeReclaimPolicy"),
                        (o, now) -> GoValues.text(o, "spec", "persistentVolumeReclaimPolicy")),
                string("Status", Doc.core("PersistentVolumeStatus", "phase"),
                        (o, now) -> Obj.deleting(o) ? "Terminating" : GoValues.text(o, "status", "phase")),
                string("Claim", Doc.core("PersistentVolumeSpec", "claimRef"), (o, now) -> claim(o)),
                string("StorageClass", Doc.text("StorageClass of the pv"), (o, now) -> storageClass(o)),
                string("VolumeAttributesClass", Doc.text("VolumeAttributesClass of the pv"),
                        (o, now) -> GoValues.textOr(o, UNSET, "spec", "volumeAttributesClassName")),
                string("Reason", Doc.core("PersistentVolumeStatus", "reason"), (o, now) -> GoValues.text(o, "status", "reason")),
                age(),
                string("VolumeMode", Doc.core("PersistentVolumeSpec", "volumeMode"),
                        (o, now) -> GoValues.textOr(o, UNSET, "spec", "volumeMode")).wide());
    }

    public static KindPrinter persistentVolumeClaims() {
        return KindPrinter.of(nameColumn(),
                string("Status", Doc.core("PersistentVolumeClaimStatus", "phase"),
                        (o, now) -> Obj.deleting(o) ? "Terminating" : GoValues.text(o, "status", "phase")),
                string("Volume", Doc.core("PersistentVolumeClaimSpec", "volumeName"), (o, now) -> GoValues.text(o, "spec", "volumeName")),
                string("Capacity", Doc.core("PersistentVolumeClaimStatus", "capacity"),
                        (o, now) -> bound(o) ? GoValues.textOr(o, "0", "status", "capacity", "storage") : ""),
                string("Access Modes", Doc.core("PersistentVolumeClaimStatus", "accessModes"),
                        (o, now) -> bound(o) ? accessModes(GoValues.at(o, "status", "accessModes")) : ""),
                string("StorageClass", Doc.text("StorageClass of the pvc"), (o, now) -> storageClass(o)),
                string("VolumeAttributesClass", Doc.text("VolumeAttributesClass of the pvc"),
                        (o, now) -> GoValues.textOr(o, UNSET, "spec", "volumeAttributesClassName")),
                age(),
                string("VolumeMode", Doc.core("PersistentVolumeClaimSpec", "volumeMode"),
                        (o, now) -> GoValues.textOr(o, UNSET, "spec", "volumeMode")).wide());
    }

    private static boolean bound(JsonNode pvc) {
        return !GoValues.text(pvc, "spec", "volumeName").isEmpty();
    }

    private static String claim(JsonNode pv) {
        JsonNode ref = GoValues.at(pv, "spec", "claimRef");
        return ref.isObject() ? GoValues.text(ref, "namespace") + "/" + GoValues.text(ref, "name") : "";
    }

    /** The beta annotation wins over {@code spec.storageClassName}, as kube's helpers. */
    private static String storageClass(JsonNode obj) {
        JsonNode annotation = GoValues.at(obj, "metadata", "annotations", BETA_CLASS);
        return annotation.isTextual() ? annotation.asText() : GoValues.text(obj, "spec", "storageClassName");
    }

    /** {@code GetAccessModesAsString}: RWO, ROX, RWX, RWOP in that order, each once. */
    static String accessModes(JsonNode modes) {
        Set<String> present = new LinkedHashSet<>();
        if (modes.isArray()) {
            modes.forEach(m -> present.add(m.asText()));
        }
        List<String> out = new ArrayList<>();
        if (present.contains("ReadWriteOnce")) {
            out.add("RWO");
        }
        if (present.contains("ReadOnlyMany")) {
            out.add("ROX");
        }
        if (present.contains("ReadWriteMany")) {
            out.add("RWX");
        }
        if (present.contains("ReadWriteOncePod")) {
            out.add("RWOP");
        }
        return String.join(",", out);
    }
}

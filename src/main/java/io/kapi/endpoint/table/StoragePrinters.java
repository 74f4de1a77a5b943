package io.kapi.endpoint.table;

import static io.kapi.endpoint.table.Columns.age;
import static io.kapi.endpoint.table.Columns.nameColumn;
import static io.kapi.registry.table.Column.bool;
import static io.kapi.registry.table.Column.integer;
import static io.kapi.registry.table.Column.string;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoValues;
import io.kapi.registry.table.Column;
import io.kapi.registry.table.Doc;
import io.kapi.registry.table.KindPrinter;
import java.util.ArrayList;
import java.util.List;

/** The tables of the {@code storage.k8s.io} group. */
public final class StoragePrinters {

    private static final String V1 = "storage.v1";

    private StoragePrinters() {
    }

    public static KindPrinter storageClasses() {
        return KindPrinter.of(
                new Column("Name", "string", "name", 0, Doc.meta("name"), (o, now) -> storageClassName(o)),
                string("Provisioner", Doc.api(V1, "StorageClass", "provisioner"), (o, now) -> GoValues.text(o, "provisioner")),
                string("ReclaimPolicy", Doc.api(V1, "StorageClass", "reclaimPolicy"), (o, now) -> GoValues.textOr(o, "Delete", "reclaimPolicy")),
                string("VolumeBindingMode", Doc.api(V1, "StorageClass", "volumeBindingMode"),
                        (o, now) -> GoValues.textOr(o, "Immediate", "volumeBindingMode")),
                string("AllowVolumeExpansion", Doc.api(V1, "StorageClass", "allowVolumeExpansion"),
                        (o, now) -> GoValues.bool(o, "allowVolumeExpansion")),
                age());
    }

    public static KindPrinter volumeAttributesClasses() {
        return KindPrinter.of(nameColumn(),
                string("DriverName", Doc.api(V1, "VolumeAttributesClass", "driverName"), (o, now) -> GoValues.text(o, "driverName")),
                age());
    }

    public static KindPrinter volumeAttachments() {
        return KindPrinter.of(nameColumn(),
                string("Attacher", Doc.api(V1, "VolumeAttachmentSpec", "attacher"), (o, now) -> GoValues.text(o, "spec", "attacher"))
                        .withFormat("name"),
                string("PV", Doc.api(V1, "VolumeAttachmentSource", "persistentVolumeName"),
                        (o, now) -> GoValues.text(o, "spec", "source", "persistentVolumeName")),
                string("Node", Doc.api(V1, "VolumeAttachmentSpec", "nodeName"), (o, now) -> GoValues.text(o, "spec", "nodeName")),
                bool("Attached", Doc.api(V1, "VolumeAttachmentStatus", "attached"), (o, now) -> GoValues.bool(o, "status", "attached")),
                age());
    }

    public static KindPrinter csiNodes() {
        return KindPrinter.of(nameColumn(),
                integer("Drivers", Doc.text("Drivers indicates the number of CSI drivers registered on the node"),
                        (o, now) -> (long) GoValues.size(o, "spec", "drivers")),
                age());
    }

    public static KindPrinter csiStorageCapacities() {
        return KindPrinter.of(nameColumn(),
                string("StorageClassName", Doc.api(V1, "CSIStorageCapacity", "storageClassName"), (o, now) -> GoValues.text(o, "storageClassName")),
                string("Capacity", Doc.api(V1, "CSIStorageCapacity", "capacity"), (o, now) -> GoValues.textOr(o, "<unset>", "capacity")));
    }

    /** The name, marked {@code (default)} when an is-default-class annotation says {@code true}. */
    private static String storageClassName(JsonNode sc) {
        boolean isDefault = "true".equals(GoValues.text(sc, "metadata", "annotations", "storageclass.kubernetes.io/is-default-class"))
                || "true".equals(GoValues.text(sc, "metadata", "annotations", "storageclass.beta.kubernetes.io/is-default-class"));
        return isDefault ? Obj.name(sc) + " (default)" : Obj.name(sc);
    }

    public static KindPrinter csiDrivers() {
        String doc = "CSIDriverSpec";
        return KindPrinter.of(nameColumn(),
                bool("AttachRequired", Doc.api(V1, doc, "attachRequired"),
                        (o, now) -> !GoValues.has(o, "spec", "attachRequired") || GoValues.bool(o, "spec", "attachRequired")),
                bool("PodInfoOnMount", Doc.api(V1, doc, "podInfoOnMount"), (o, now) -> GoValues.bool(o, "spec", "podInfoOnMount")),
                bool("StorageCapacity", Doc.api(V1, doc, "storageCapacity"), (o, now) -> GoValues.bool(o, "spec", "storageCapacity")),
                string("TokenRequests", Doc.api(V1, doc, "tokenRequests"), (o, now) -> tokenRequests(o)),
                bool("RequiresRepublish", Doc.api(V1, doc, "requiresRepublish"), (o, now) -> GoValues.bool(o, "spec", "requiresRepublish")),
                string("Modes", Doc.api(V1, doc, "volumeLifecycleModes"), (o, now) -> {
                    String modes = NetworkingPrinters.joined(o, "spec", "volumeLifecycleModes");
                    return modes.isEmpty() ? Labels.NONE : modes;
                }),
                age());
    }

    private static String tokenRequests(JsonNode driver) {
        if (!GoValues.at(driver, "spec", "tokenRequests").isArray()) {
            return "<unset>";
        }
        List<String> audiences = new ArrayList<>();
        GoValues.items(driver, "spec", "tokenRequests").forEach(t -> audiences.add(GoValues.text(t, "audience")));
        return String.join(",", audiences);
    }
}

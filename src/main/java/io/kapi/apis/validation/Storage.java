package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.quantity.Quantity;
import io.kapi.machinery.validation.Identifiers;
import io.kapi.registry.KindValidator;
import java.util.List;

/** PersistentVolumeClaims, PersistentVolumes and StorageClasses. */
public final class Storage {

    private static final List<String> ACCESS_MODES = List.of("ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce",
            "ReadWriteOncePod");
    private static final List<String> VOLUME_MODES = List.of("Block", "Filesystem");
    private static final List<String> PV_RECLAIM = List.of("Delete", "Recycle", "Retain");
    private static final List<String> SC_RECLAIM = List.of("Delete", "Retain");
    private static final List<String> BINDING_MODES = List.of("Immediate", "WaitForFirstConsumer");
    private static final List<String> PV_SOURCES = List.of("gcePersistentDisk", "awsElasticBlockStore", "hostPath",
            "glusterfs", "nfs", "rbd", "quobyte", "cinder", "cephfs", "fc", "flocker", "azureFile", "vsphereVolume",
            "azureDisk", "photonPersistentDisk", "portworxVolume", "scaleIO", "local", "storageos", "csi", "iscsi");
    static final String PVC_IMMUTABLE = "spec is immutable after creation except resources.requests and "
            + "volumeAttributesClassName for bound claims";

    private Storage() {
    }

    public static final KindValidator PVC = new Rules((o, e) -> claimSpec(GoValues.at(o, "spec"), e), Storage::claimUpdate);
    public static final KindValidator PV = new Rules(Storage::volume, Storage::volumeUpdate);
    public static final KindValidator STORAGE_CLASS = Rules.of(Storage::storageClass, Storage::storageClassUpdate);

    static void accessModes(JsonNode spec, String path, boolean pvc, Errs e) {
        List<JsonNode> modes = GoValues.items(spec.get("accessModes"));
        if (modes.isEmpty()) {
            e.required(path, pvc ? "at least 1 access mode is required" : "");
        }
        boolean once = false;
        boolean other = false;
        for (JsonNode m : modes) {
            if (!ACCESS_MODES.contains(m.asText())) {
                e.notSupported(path, GoStrings.quote(m.asText()), ACCESS_MODES);
            } else if (m.asText().equals("ReadWriteOncePod")) {
                once = true;
            } else {
                other = true;
            }
        }
        if (once && other) {
            e.forbidden(path, "may not use ReadWriteOncePod with other access modes");
        }
    }

    private static void claimSpec(JsonNode spec, Errs e) {
        accessModes(spec, "spec.accessModes", true, e);
        if (GoValues.has(spec, "selector")) {
            Selectors.validate(spec.get("selector"), "spec.selector", e);
        }
        JsonNode storage = GoValues.at(spec, "resources", "requests", "storage");
        if (storage.isMissingNode() || storage.isNull()) {
            e.required("spec.resources[storage]", "");
        } else {
            Quantity q = Quantity.parseOrNull(storage.asText());
            if (q != null && q.signum() <= 0) {
                e.invalidString("spec.resources[storage]", storage.asText(), "must be greater than zero");
            }
        }
        String sc = GoValues.text(spec, "storageClassName");
        if (!sc.isEmpty()) {
            e.each("spec.storageClassName", sc, Identifiers.dns1123Subdomain(sc));
        }
        String mode = GoValues.text(spec, "volumeMode");
        if (GoValues.has(spec, "volumeMode") && !VOLUME_MODES.contains(mode)) {
            e.notSupported("spec.volumeMode", GoStrings.quote(mode), VOLUME_MODES);
        }
    }

    private static void claimUpdate(ObjectNode pvc, ObjectNode old, Errs e) {
        JsonNode spec = GoValues.at(pvc, "spec");
        JsonNode oldSpec = GoValues.at(old, "spec");
        claimSpec(spec, e);
        ObjectNode now = spec.isObject() ? ((ObjectNode) spec).deepCopy() : pvc.objectNode();
        ObjectNode before = oldSpec.isObject() ? ((ObjectNode) oldSpec).deepCopy() : pvc.objectNode();
        if (GoValues.text(oldSpec, "volumeName").isEmpty()) {
            before.set("volumeName", now.get("volumeName"));
        }
        if (!GoValues.has(oldSpec, "storageClassName") && GoValues.has(spec, "storageClassName")) {
            before.set("storageClassName", now.get("storageClassName"));
        }
        boolean bound = GoValues.text(GoValues.at(pvc, "status"), "phase").equals("Bound");
        if (bound) {
            now.with("resources").with("requests").set("storage", GoValues.at(oldSpec, "resources", "requests", "storage"));
            now.set("volumeAttributesClassName", before.get("volumeAttributesClassName"));
        }
        if (!GoValues.same(normalized(now), normalized(before))) {
            e.forbidden("spec", PVC_IMMUTABLE + "\n" + SpecDiff.diff("core.PersistentVolumeClaimSpec", before, now));
        }
        String newSize = GoValues.at(spec, "resources", "requests", "storage").asText("");
        String oldSize = GoValues.at(oldSpec, "resources", "requests", "storage").asText("");
        String statusSize = GoValues.at(old, "status", "capacity", "storage").asText("");
        if (!newSize.isEmpty() && !oldSize.isEmpty() && Resources.compareQuantities(newSize, oldSize) < 0
                && (statusSize.isEmpty() || Resources.compareQuantities(newSize, statusSize) <= 0)) {
            e.forbidden("spec.resources.requests.storage", "field can not be less than status.capacity");
        }
    }

    private static ObjectNode normalized(ObjectNode spec) {
        spec.properties().removeIf(en -> en.getValue() == null || en.getValue().isNull());
        return spec;
    }

    private static void volume(ObjectNode pv, Errs e) {
        JsonNode spec = GoValues.at(pv, "spec");
        accessModes(spec, "spec.accessModes", false, e);
        JsonNode capacity = GoValues.at(spec, "capacity");
        if (capacity.isEmpty()) {
            e.required("spec.capacity", "");
        } else if (!capacity.has("storage") || capacity.size() > 1) {
            e.notSupported("spec.capacity", Go.stringMap(capacity), List.of("storage"));
        }
        String reclaim = GoValues.text(spec, "persistentVolumeReclaimPolicy");
        if (!reclaim.isEmpty() && !PV_RECLAIM.contains(reclaim)) {
            e.notSupported("spec.persistentVolumeReclaimPolicy", GoStrings.quote(reclaim), PV_RECLAIM);
        }
        int sources = 0;
        for (String s : PV_SOURCES) {
            if (!GoValues.has(spec, s)) {
                continue;
            }
            if (sources > 0) {
                e.forbidden("spec." + s, "may not specify more than 1 volume type");
            }
            sources++;
        }
        if (sources == 0) {
            e.required("spec", "must specify a volume type");
        }
        String sc = GoValues.text(spec, "storageClassName");
        if (!sc.isEmpty()) {
            e.each("spec.storageClassName", sc, Identifiers.dns1123Subdomain(sc));
        }
    }

    private static void volumeUpdate(ObjectNode pv, ObjectNode old, Errs e) {
        volume(pv, e);
        JsonNode spec = GoValues.at(pv, "spec");
        JsonNode oldSpec = GoValues.at(old, "spec");
        for (String s : PV_SOURCES) {
            if (!GoValues.same(spec.get(s), oldSpec.get(s))) {
                e.forbidden("spec.persistentvolumesource", "spec.persistentvolumesource is immutable after creation");
                break;
            }
        }
        e.immutableScalar(spec.get("volumeMode"), oldSpec.get("volumeMode"), "volumeMode");
    }

    private static void storageClass(ObjectNode sc, Errs e) {
        String provisioner = GoValues.text(sc, "provisioner");
        if (provisioner.isEmpty()) {
            e.required("provisioner", "");
        } else {
            e.each("provisioner", provisioner, Identifiers.qualifiedName(provisioner.toLowerCase(java.util.Locale.ROOT)));
        }
        String reclaim = GoValues.text(sc, "reclaimPolicy");
        if (GoValues.has(sc, "reclaimPolicy") && !SC_RECLAIM.contains(reclaim)) {
            e.notSupported("reclaimPolicy", GoStrings.quote(reclaim), SC_RECLAIM);
        }
        String binding = GoValues.text(sc, "volumeBindingMode");
        if (GoValues.has(sc, "volumeBindingMode") && !BINDING_MODES.contains(binding)) {
            e.notSupported("volumeBindingMode", GoStrings.quote(binding), BINDING_MODES);
        }
    }

    private static void storageClassUpdate(ObjectNode sc, ObjectNode old, Errs e) {
        if (!GoValues.same(sc.get("parameters"), old.get("parameters"))) {
            e.forbidden("parameters", "updates to parameters are forbidden.");
        }
        if (!GoValues.text(sc, "provisioner").equals(GoValues.text(old, "provisioner"))) {
            e.forbidden("provisioner", "updates to provisioner are forbidden.");
        }
        String reclaim = GoValues.text(sc, "reclaimPolicy");
        String oldReclaim = GoValues.text(old, "reclaimPolicy");
        if (!(reclaim.isEmpty() ? "Delete" : reclaim).equals(oldReclaim.isEmpty() ? "Delete" : oldReclaim)) {
            e.forbidden("reclaimPolicy", "updates to reclaimPolicy are forbidden.");
        }
        String mode = GoValues.text(sc, "volumeBindingMode");
        String oldMode = GoValues.text(old, "volumeBindingMode");
        if (!(mode.isEmpty() ? "Immediate" : mode).equals(oldMode.isEmpty() ? "Immediate" : oldMode)) {
            e.invalidString("volumeBindingMode", mode, Errs.IMMUTABLE);
        }
    }
}

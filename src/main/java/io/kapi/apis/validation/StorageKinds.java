package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.quantity.Quantity;
import io.kapi.machinery.validation.Identifiers;
import io.kapi.registry.KindValidator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * CSIDrivers, CSINodes, CSIStorageCapacities and VolumeAttributesClasses, as kube 1.34's
 * {@code pkg/apis/storage/validation} and their strategies with the default feature gates:
 * {@code SELinuxMountReadWriteOncePod} on (seLinuxMount required), {@code MutableCSINodeAllocatableCount} off
 * (a CSINode driver's allocatable is immutable, {@code nodeAllocatableUpdatePeriodSeconds} is dropped, so
 * unchecked), CSINode IDs of up to 256 bytes ({@code AllowLongNodeID}).
 */
public final class StorageKinds {

    public static final KindValidator CSI_DRIVER = new Rules(StorageKinds::csiDriver, StorageKinds::csiDriverUpdate);
    public static final KindValidator CSI_NODE = new Aggregated(Rules.of(StorageKinds::csiNode, StorageKinds::csiNodeUpdate));
    public static final KindValidator CSI_STORAGE_CAPACITY = new Rules((o, e) -> capacity(o, false, e),
            StorageKinds::capacityUpdate);
    public static final KindValidator VOLUME_ATTRIBUTES_CLASS = new Aggregated(
            Rules.of(StorageKinds::attributesClass, StorageKinds::attributesClassUpdate));

    private static final int CSI_DRIVER_NAME_MAX = 63;
    private static final int NODE_ID_MAX = 256;
    private static final long MIN_EXPIRATION = 600;
    private static final long MAX_EXPIRATION = 1L << 32;
    private static final int MAX_PARAMETERS = 512;
    private static final int MAX_PARAMETERS_SIZE = 256 * 1024;
    private static final List<String> FS_GROUP_POLICIES = List.of("File", "None", "ReadWriteOnceWithFSType");
    private static final List<String> LIFECYCLE_MODES = List.of("Persistent", "Ephemeral");

    private StorageKinds() {
    }

    /** Core's {@code ValidateCSIDriverName}: required, at most 63 bytes, a DNS subdomain once lower-cased. */
    static void csiDriverName(String name, String path, Errs e) {
        if (name.isEmpty()) {
            e.required(path, "");
        }
        if (bytes(name) > CSI_DRIVER_NAME_MAX) {
            e.tooLong(path, CSI_DRIVER_NAME_MAX);
        }
        e.each(path, name, Identifiers.dns1123Subdomain(name.toLowerCase(Locale.ROOT)));
    }

    static int bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    /** {@code validateCSIDriverSpec}; kube reports attachRequired under its misspelt path. */
    private static void csiDriver(ObjectNode driver, Errs e) {
        JsonNode spec = GoValues.at(driver, "spec");
        requiredBool(spec, "attachRequired", "spec.attachedRequired", e);
        requiredBool(spec, "podInfoOnMount", "spec.podInfoOnMount", e);
        requiredBool(spec, "storageCapacity", "spec.storageCapacity", e);
        if (GoValues.has(spec, "fsGroupPolicy") && !FS_GROUP_POLICIES.contains(GoValues.text(spec, "fsGroupPolicy"))) {
            e.notSupported("spec.fsGroupPolicy", Go.scalar(spec.get("fsGroupPolicy")), FS_GROUP_POLICIES);
        }
        tokenRequests(GoValues.items(spec.get("tokenRequests")), e);
        for (JsonNode mode : GoValues.items(spec.get("volumeLifecycleModes"))) {
            if (!LIFECYCLE_MODES.contains(mode.asText())) {
                e.notSupported("spec.volumeLifecycleModes", Go.scalar(mode), LIFECYCLE_MODES);
            }
        }
        requiredBool(spec, "seLinuxMount", "spec.seLinuxMount", e);
    }

    private static void requiredBool(JsonNode spec, String field, String path, Errs e) {
        if (GoValues.isUnset(spec.get(field))) {
            e.required(path, "");
        }
    }

    /** {@code validateTokenRequests}: distinct audiences, expirations between 10 minutes and 2^32 seconds. */
    private static void tokenRequests(List<JsonNode> requests, Errs e) {
        Set<String> audiences = new HashSet<>();
        for (int i = 0; i < requests.size(); i++) {
            String path = "spec.tokenRequests[" + i + "]";
            String audience = GoValues.text(requests.get(i), "audience");
            if (!audiences.add(audience)) {
                e.duplicate(path + ".audience", GoStrings.quote(audience));
                continue;
            }
            JsonNode seconds = requests.get(i).get("expirationSeconds");
            if (GoValues.isUnset(seconds)) {
                continue;
            }
            if (seconds.asLong() < MIN_EXPIRATION) {
                e.invalid(path + ".expirationSeconds", seconds.asText(), "may not specify a duration less than 10 minutes");
            }
            if (seconds.asLong() > MAX_EXPIRATION) {
                e.invalid(path + ".expirationSeconds", seconds.asText(),
                        "may not specify a duration larger than 2^32 seconds");
            }
        }
    }

    /** {@code ValidateCSIDriverUpdate}: the spec, then attachRequired and volumeLifecycleModes immutable. */
    private static void csiDriverUpdate(ObjectNode driver, ObjectNode old, Errs e) {
        csiDriver(driver, e);
        JsonNode spec = GoValues.at(driver, "spec");
        JsonNode oldSpec = GoValues.at(old, "spec");
        e.immutableScalar(spec.get("attachRequired"), oldSpec.get("attachRequired"), "spec.attachedRequired");
        JsonNode modes = spec.get("volumeLifecycleModes");
        if (!GoValues.same(modes, oldSpec.get("volumeLifecycleModes"))) {
            e.invalid("spec.volumeLifecycleModes",
                    Go.stringSlice(modes).replace("[]string", "[]storage.VolumeLifecycleMode"), Errs.IMMUTABLE);
        }
    }

    /** {@code validateCSINodeDrivers}: each driver's name, nodeID, allocatable count and topology keys. */
    private static void csiNode(ObjectNode node, Errs e) {
        List<JsonNode> drivers = GoValues.items(GoValues.at(node, "spec", "drivers"));
        Set<String> names = new HashSet<>();
        for (int i = 0; i < drivers.size(); i++) {
            JsonNode d = drivers.get(i);
            String path = "spec.drivers[" + i + "]";
            String name = GoValues.text(d, "name");
            csiDriverName(name, path + ".name", e);
            String nodeId = GoValues.text(d, "nodeID");
            if (nodeId.isEmpty()) {
                e.required(path + ".nodeID", "");
            }
            if (bytes(nodeId) > NODE_ID_MAX) {
                e.invalidString(path + ".nodeID", nodeId, "must be " + NODE_ID_MAX + " characters or less");
            }
            e.nonNegative(GoValues.at(d, "allocatable"), "count", path + ".allocatable.count");
            if (!names.add(name)) {
                e.duplicate(path + ".name", GoStrings.quote(name));
            }
            topologyKeys(GoValues.items(d.get("topologyKeys")), path, e);
        }
    }

    /** Topology keys: non-empty, distinct qualified names, all reported on the driver's path. */
    private static void topologyKeys(List<JsonNode> keys, String path, Errs e) {
        Set<String> seen = new HashSet<>();
        for (JsonNode k : keys) {
            String key = k.asText();
            if (key.isEmpty()) {
                e.required(path, "");
            }
            if (!seen.add(key)) {
                e.duplicate(path, GoStrings.quote(key));
            }
            e.each(path, key, Identifiers.qualifiedName(key));
        }
    }

    /** {@code ValidateCSINodeUpdate}: a driver kept under its name may not change (allocatable included). */
    private static void csiNodeUpdate(ObjectNode node, ObjectNode old, Errs e) {
        csiNode(node, e);
        for (JsonNode before : GoValues.items(GoValues.at(old, "spec", "drivers"))) {
            for (JsonNode now : GoValues.items(GoValues.at(node, "spec", "drivers"))) {
                if (GoValues.text(before, "name").equals(GoValues.text(now, "name")) && !sameDriver(now, before)) {
                    e.invalid("spec.drivers", renderDriver(now), Errs.IMMUTABLE);
                }
            }
        }
    }

    private static boolean sameDriver(JsonNode a, JsonNode b) {
        return List.of("nodeID", "topologyKeys", "allocatable").stream().allMatch(f -> GoValues.same(a.get(f), b.get(f)));
    }

    /** The driver as Go's {@code %#v} prints a {@code storage.CSINodeDriver} (pointers as placeholders). */
    private static String renderDriver(JsonNode d) {
        String allocatable = GoValues.isUnset(d.get("allocatable")) ? "(*storage.VolumeNodeResources)(nil)"
                : "(*storage.VolumeNodeResources)(0xc000000000)";
        return "storage.CSINodeDriver{Name:" + GoStrings.quote(GoValues.text(d, "name")) + ", NodeID:"
                + GoStrings.quote(GoValues.text(d, "nodeID")) + ", TopologyKeys:" + Go.stringSlice(d.get("topologyKeys"))
                + ", Allocatable:" + allocatable + "}";
    }

    /** {@code ValidateCSIStorageCapacity}: the node topology selector, the class name, a non-negative capacity. */
    private static void capacity(ObjectNode c, boolean allowInvalidLabelValues, Errs e) {
        Selectors.validate(c.get("nodeTopology"), "nodeTopology", allowInvalidLabelValues, e);
        String className = GoValues.text(c, "storageClassName");
        e.each("storageClassName", className, Identifiers.dns1123Subdomain(className));
        Quantity q = GoValues.isUnset(c.get("capacity")) ? null : Quantity.parseOrNull(c.get("capacity").asText());
        if (q != null && q.signum() < 0) {
            e.invalidString("capacity", Quantity.of(q.value(), q.format()).toString(), Errs.NEGATIVE);
        }
    }

    /**
     * The strategy's update: the new object, with invalid selector values allowed when the old one had any
     * selector error, then nodeTopology and storageClassName immutable.
     */
    private static void capacityUpdate(ObjectNode c, ObjectNode old, Errs e) {
        Errs oldSelector = new Errs();
        Selectors.validate(old.get("nodeTopology"), "nodeTopology", oldSelector);
        capacity(c, !oldSelector.isEmpty(), e);
        if (!GoValues.same(c.get("nodeTopology"), old.get("nodeTopology"))) {
            e.invalid("nodeTopology", Go.labelSelector(c.get("nodeTopology")), Errs.IMMUTABLE);
        }
        if (!GoValues.text(c, "storageClassName").equals(GoValues.text(old, "storageClassName"))) {
            e.invalidString("storageClassName", GoValues.text(c, "storageClassName"), Errs.IMMUTABLE);
        }
    }

    /** {@code ValidateVolumeAttributesClass}: driverName as a provisioner, at least one parameter. */
    private static void attributesClass(ObjectNode c, Errs e) {
        String driver = GoValues.text(c, "driverName");
        if (driver.isEmpty()) {
            e.required("driverName", "");
        } else {
            String lower = driver.toLowerCase(Locale.ROOT);
            e.each("driverName", lower, Identifiers.qualifiedName(lower));
        }
        parameters(GoValues.at(c, "parameters"), e);
    }

    /** {@code validateParameters} with {@code allowEmpty=false}. */
    private static void parameters(JsonNode params, Errs e) {
        if (params.size() > MAX_PARAMETERS) {
            e.tooLong("parameters", MAX_PARAMETERS);
            return;
        }
        long total = 0;
        List<String> keys = new ArrayList<>();
        params.properties().forEach(en -> keys.add(en.getKey()));
        for (String k : keys) {
            if (k.isEmpty()) {
                e.invalidString("parameters", k, "field can not be empty.");
            }
            total += bytes(k) + bytes(params.get(k).asText());
        }
        if (total > MAX_PARAMETERS_SIZE) {
            e.tooLong("parameters", MAX_PARAMETERS_SIZE);
        }
        if (params.isEmpty()) {
            e.required("parameters", "must contain at least one key/value pair");
        }
    }

    private static void attributesClassUpdate(ObjectNode c, ObjectNode old, Errs e) {
        if (!GoValues.text(c, "driverName").equals(GoValues.text(old, "driverName"))) {
            e.forbidden("driverName", "updates to driverName are forbidden.");
        }
        if (!GoValues.at(c, "parameters").equals(GoValues.at(old, "parameters"))) {
            e.forbidden("parameters", "updates to parameters are forbidden.");
        }
        attributesClass(c, e);
    }
}

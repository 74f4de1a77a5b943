package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.validation.Identifiers;
import io.kapi.registry.KindValidator;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * ResourceSlices (resource.k8s.io/v1), as kube 1.34's {@code ValidateResourceSlice}/{@code Update} with the
 * default feature gates: the driver (a CSI driver name), the pool (name, generation, resourceSliceCount),
 * exactly one of {@code nodeName}, {@code nodeSelector} (one term) and {@code allNodes}, and at most 128
 * devices with unique DNS-label names ({@link SliceDevices}). On update the driver, pool name and node name
 * are immutable and the rest is validated again.
 *
 * <p>Fields of alpha features are dropped by kube's strategy before validation and are not read here:
 * {@code perDeviceNodeSelection}, {@code sharedCounters} and the devices' counters and node fields
 * ({@code DRAPartitionableDevices}), device taints ({@code DRADeviceTaints}), binding conditions and
 * multiple allocations.
 */
public final class ResourceSlices {

    public static final KindValidator RULES = new Rules((o, e) -> spec(GoValues.at(o, "spec"), null, e),
            (o, old, e) -> spec(GoValues.at(o, "spec"), GoValues.at(old, "spec"), e));

    private static final int DEVICES_MAX = 128;
    private static final String ONE_NODE_SELECTION =
            "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required";

    private ResourceSlices() {
    }

    /** {@code validateResourceSliceSpec}; {@code oldSpec} is null on create. */
    private static void spec(JsonNode spec, JsonNode oldSpec, Errs e) {
        DraNames.driver(GoValues.text(spec, "driver"), "spec.driver", e);
        pool(GoValues.at(spec, "pool"), e);
        if (oldSpec != null) {
            immutableText(GoValues.at(spec, "pool").get("name"), GoValues.at(oldSpec, "pool").get("name"),
                    "spec.pool.name", e);
            immutableText(spec.get("driver"), oldSpec.get("driver"), "spec.driver", e);
            String name = GoValues.textPointer(spec, "nodeName");
            if (!Objects.equals(name, GoValues.textPointer(oldSpec, "nodeName"))) {
                e.invalid("spec.nodeName", name == null ? "null" : GoStrings.quote(name), Errs.IMMUTABLE);
            }
        }
        nodeSelection(spec, e);
        List<JsonNode> devices = GoValues.items(spec.get("devices"));
        for (int i = 0; i < devices.size(); i++) {
            SliceDevices.device(devices.get(i), "spec.devices[" + i + "]", e);
        }
        DeviceRequests.limitAndDuplicates(devices, DEVICES_MAX, "spec.devices", e);
    }

    /** {@code ValidateImmutableField} of a string field (absent reads as {@code ""}). */
    private static void immutableText(JsonNode now, JsonNode before, String path, Errs e) {
        String a = GoValues.text(now);
        if (!a.equals(GoValues.text(before))) {
            e.invalidString(path, a, Errs.IMMUTABLE);
        }
    }

    /** {@code validateResourcePool}. */
    private static void pool(JsonNode pool, Errs e) {
        DraNames.pool(GoValues.text(pool, "name"), "spec.pool.name", e);
        long count = GoValues.integer(pool, "resourceSliceCount");
        if (count <= 0) {
            e.invalid("spec.pool.resourceSliceCount", Long.toString(count), "must be greater than zero");
        }
        long generation = GoValues.integer(pool, "generation");
        if (generation < 0) {
            e.invalid("spec.pool.generation", Long.toString(generation), "must be greater than or equal to zero");
        }
    }

    /** Exactly one of nodeName (non-empty), nodeSelector (one term) and allNodes (true). */
    private static void nodeSelection(JsonNode spec, Errs e) {
        List<String> set = new ArrayList<>();
        String nodeName = GoValues.textPointer(spec, "nodeName");
        if (nodeName != null) {
            if (nodeName.isEmpty()) {
                e.invalidString("spec.nodeName", "", "must be either unset or set to a non-empty string");
            } else {
                set.add("`nodeName`");
                e.each("spec.nodeName", nodeName, Identifiers.dns1123Subdomain(nodeName));
            }
        }
        JsonNode selector = spec.get("nodeSelector");
        if (!GoValues.isUnset(selector)) {
            set.add("`nodeSelector`");
            NodeSelectors.validate(selector, "spec.nodeSelector", e);
            JsonNode terms = selector.get("nodeSelectorTerms");
            if (GoValues.items(terms).size() != 1) {
                e.invalid("spec.nodeSelector.nodeSelectorTerms", NodeSelectors.renderTerms(terms),
                        "must have exactly one node selector term");
            }
        }
        JsonNode allNodes = spec.get("allNodes");
        if (!GoValues.isUnset(allNodes)) {
            if (allNodes.asBoolean(false)) {
                set.add("`allNodes`");
            } else {
                e.invalid("spec.allNodes", "false", "must be either unset or set to true");
            }
        }
        if (set.isEmpty()) {
            e.required("spec", ONE_NODE_SELECTION);
        } else if (set.size() > 1) {
            e.invalidString("spec", "{" + String.join(", ", set) + "}", ONE_NODE_SELECTION
                    + ", but multiple fields are set");
        }
    }

}

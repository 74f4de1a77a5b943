package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.re2j.Pattern;
import io.kapi.machinery.GoValues;
import java.util.List;
import java.util.Map;

/**
 * One device of a ResourceSlice, as kube 1.34's {@code validateDevice} with the default feature gates: a
 * DNS-label name; attributes and capacities under qualified names (at most 32 together), each attribute
 * holding exactly one of {@code bool}, {@code int}, {@code string} (at most 64 bytes) and {@code version}
 * (semantic version 2.0.0, at most 64 bytes). Capacities are quantities, checked when decoded.
 */
final class SliceDevices {

    private static final int ATTRIBUTES_AND_CAPACITIES_MAX = 32;
    private static final int VALUE_MAX = 64;
    private static final int KEY_MAX = DraNames.DOMAIN_MAX + 1 + DraNames.ID_MAX;
    private static final List<String> VALUE_FIELDS = List.of("int", "bool", "string", "version");
    private static final String PRE_RELEASE = "(0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)";
    private static final String BUILD = "[0-9a-zA-Z-]+";
    private static final Pattern SEMVER = Pattern.compile("(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)"
            + "(-" + PRE_RELEASE + "(\\." + PRE_RELEASE + ")*)?" + "(\\+" + BUILD + "(\\." + BUILD + ")*)?");
    private static final String ONE_VALUE = "exactly one value must be specified";

    private SliceDevices() {
    }

    /** {@code validateDevice} at {@code path} ({@code spec.devices[i]}). */
    static void device(JsonNode device, String path, Errs e) {
        DraNames.label(GoValues.text(device, "name"), path + ".name", e);
        JsonNode attributes = device.get("attributes");
        for (Map.Entry<String, JsonNode> a : entries(attributes)) {
            String p = DraNames.key(path + ".attributes", a.getKey(), KEY_MAX);
            DraNames.qualified(a.getKey(), p, e);
            attribute(a.getValue(), p, e);
        }
        JsonNode capacity = device.get("capacity");
        for (Map.Entry<String, JsonNode> c : entries(capacity)) {
            DraNames.qualified(c.getKey(), DraNames.key(path + ".capacity", c.getKey(), KEY_MAX), e);
        }
        int total = GoValues.size(attributes) + GoValues.size(capacity);
        if (total > ATTRIBUTES_AND_CAPACITIES_MAX) {
            e.invalid(path, Integer.toString(total), "the total number of attributes and capacities must not exceed "
                    + ATTRIBUTES_AND_CAPACITIES_MAX);
        }
    }

    private static Iterable<Map.Entry<String, JsonNode>> entries(JsonNode map) {
        return map != null && map.isObject() ? map.properties() : List.of();
    }

    /** {@code validateDeviceAttribute}: the string and version values, then exactly one value. */
    private static void attribute(JsonNode attribute, String path, Errs e) {
        String string = GoValues.textPointer(attribute, "string");
        if (string != null && StorageKinds.bytes(string) > VALUE_MAX) {
            e.tooLong(path + ".string", VALUE_MAX);
        }
        String version = GoValues.textPointer(attribute, "version");
        if (version != null) {
            if (!SEMVER.matcher(version).matches()) {
                e.invalidString(path + ".version", version, "must be a string compatible with semver.org spec 2.0.0");
            }
            if (StorageKinds.bytes(version) > VALUE_MAX) {
                e.tooLong(path + ".version", VALUE_MAX);
            }
        }
        long set = VALUE_FIELDS.stream().filter(f -> GoValues.has(attribute, f)).count();
        if (set == 0) {
            e.required(path, ONE_VALUE);
        } else if (set > 1) {
            e.invalid(path, render(attribute), ONE_VALUE);
        }
    }

    /** A {@code resource.DeviceAttribute} as Go's {@code %#v} prints it, pointers as placeholders. */
    private static String render(JsonNode a) {
        return "resource.DeviceAttribute{IntValue:" + pointer(a, "int", "int64") + ", BoolValue:"
                + pointer(a, "bool", "bool") + ", StringValue:" + pointer(a, "string", "string") + ", VersionValue:"
                + pointer(a, "version", "string") + "}";
    }

    private static String pointer(JsonNode a, String field, String type) {
        return "(*" + type + ")(" + (GoValues.has(a, field) ? "0xc000000000" : "nil") + ")";
    }
}

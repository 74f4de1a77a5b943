package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A claim's {@code devices} ({@code DeviceClaim}), as kube 1.34's {@code validateDeviceClaim} with the
 * default feature gates: requests (DNS-label names, unique, exactly one of {@code exactly} and
 * {@code firstAvailable}; a device class, selectors and an allocation mode each), constraints
 * ({@code matchAttribute} a fully qualified name, requests that name a request or {@code request/subrequest})
 * and configurations (opaque driver and parameters for named requests). Errors come in kube's order.
 *
 * <p>Fields of alpha features are dropped by kube's strategy before validation and are not read here:
 * tolerations ({@code DRADeviceTaints}), capacity requests and {@code distinctAttribute}
 * ({@code DRAConsumableCapacity}).
 */
final class DeviceRequests {

    static final int REQUESTS_MAX = 32;
    private static final int FIRST_AVAILABLE_MAX = 8;
    private static final int CONSTRAINTS_MAX = 32;
    private static final List<String> MODES = List.of("All", "ExactCount");
    private static final String NOT_A_REQUEST =
            "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'";

    private DeviceRequests() {
    }

    /** {@code validateDeviceClaim} of {@code devices} at {@code path} ({@code spec.devices}). */
    static void claim(JsonNode devices, String path, boolean stored, Errs e) {
        Map<String, Set<String>> names = requestNames(devices);
        List<JsonNode> requests = GoValues.items(devices.get("requests"));
        for (int i = 0; i < requests.size(); i++) {
            request(requests.get(i), path + ".requests[" + i + "]", stored, e);
        }
        limitAndDuplicates(requests, REQUESTS_MAX, path + ".requests", e);
        List<JsonNode> constraints = GoValues.items(devices.get("constraints"));
        for (int i = 0; i < constraints.size(); i++) {
            constraint(constraints.get(i), path + ".constraints[" + i + "]", names, e);
        }
        if (constraints.size() > CONSTRAINTS_MAX) {
            e.tooMany(path + ".constraints", constraints.size(), CONSTRAINTS_MAX);
        }
        List<JsonNode> configs = GoValues.items(devices.get("config"));
        for (int i = 0; i < configs.size(); i++) {
            String p = path + ".config[" + i + "]";
            requestRefs(configs.get(i).get("requests"), p + ".requests", names, e);
            DeviceSelectors.configuration(configs.get(i), p, stored, e);
        }
        if (configs.size() > DeviceSelectors.CONFIG_MAX) {
            e.tooMany(path + ".config", configs.size(), DeviceSelectors.CONFIG_MAX);
        }
    }

    /** Request name → its subrequests' names (null when it has none), as kube's {@code gatherRequestNames}. */
    private static Map<String, Set<String>> requestNames(JsonNode devices) {
        Map<String, Set<String>> names = new HashMap<>();
        for (JsonNode r : GoValues.items(devices.get("requests"))) {
            List<JsonNode> subs = GoValues.items(r.get("firstAvailable"));
            Set<String> subNames = subs.isEmpty() ? null : new HashSet<>();
            subs.forEach(s -> subNames.add(GoValues.text(s, "name")));
            names.put(GoValues.text(r, "name"), subNames);
        }
        return names;
    }

    /** {@code validateDeviceRequest}: its name, then exactly one of {@code exactly} or {@code firstAvailable}. */
    private static void request(JsonNode r, String path, boolean stored, Errs e) {
        DraNames.label(GoValues.text(r, "name"), path + ".name", e);
        List<JsonNode> subs = GoValues.items(r.get("firstAvailable"));
        boolean exactly = GoValues.has(r, "exactly");
        if (subs.isEmpty() && !exactly) {
            e.required(path, "exactly one of `exactly` or `firstAvailable` is required");
        } else if (!subs.isEmpty() && exactly) {
            e.invalid(path, "null", "exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set");
        } else if (exactly) {
            devices(r.get("exactly"), path + ".exactly", stored, e);
        } else {
            for (int i = 0; i < subs.size(); i++) {
                String p = path + ".firstAvailable[" + i + "]";
                DraNames.label(GoValues.text(subs.get(i), "name"), p + ".name", e);
                devices(subs.get(i), p, stored, e);
            }
            limitAndDuplicates(subs, FIRST_AVAILABLE_MAX, path + ".firstAvailable", e);
        }
    }

    /** What an exact request and a subrequest share: class, selectors, allocation mode and count. */
    private static void devices(JsonNode r, String path, boolean stored, Errs e) {
        DraNames.deviceClass(GoValues.text(r, "deviceClassName"), path + ".deviceClassName", e);
        DeviceSelectors.selectors(r.get("selectors"), path + ".selectors", stored, e);
        String mode = GoValues.text(r, "allocationMode");
        long count = GoValues.integer(r, "count");
        switch (mode) {
            case "All" -> {
                if (count != 0) {
                    e.invalid(path + ".count", Long.toString(count), "must not be specified when allocationMode is 'All'");
                }
            }
            case "ExactCount" -> {
                if (count <= 0) {
                    e.invalid(path + ".count", Long.toString(count), "must be greater than zero");
                }
            }
            default -> e.notSupported(path + ".allocationMode", GoStrings.quote(mode), MODES);
        }
    }

    /** {@code validateDeviceConstraint}: its requests, then a fully qualified {@code matchAttribute}. */
    private static void constraint(JsonNode c, String path, Map<String, Set<String>> names, Errs e) {
        requestRefs(c.get("requests"), path + ".requests", names, e);
        String attribute = GoValues.textPointer(c, "matchAttribute");
        if (attribute == null) {
            e.required(path + ".matchAttribute", "");
        } else {
            DraNames.fullyQualified(attribute, path + ".matchAttribute", e);
        }
    }

    /** A set of request references ({@code validateRequestNameRef} each), unique, at most 32. */
    private static void requestRefs(JsonNode list, String path, Map<String, Set<String>> names, Errs e) {
        List<JsonNode> refs = GoValues.items(list);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < refs.size(); i++) {
            requestRef(refs.get(i).asText(""), path + "[" + i + "]", names, e);
        }
        if (refs.size() > REQUESTS_MAX) {
            e.tooMany(path, refs.size(), REQUESTS_MAX);
        }
        for (int i = 0; i < refs.size(); i++) {
            String ref = refs.get(i).asText("");
            if (!seen.add(ref)) {
                e.duplicate(path + "[" + i + "]", GoStrings.quote(ref));
            }
        }
    }

    /** {@code validateRequestNameRef}: {@code request} or {@code request/subrequest} of this claim. */
    static void requestRef(String ref, String path, Map<String, Set<String>> names, Errs e) {
        String[] segments = ref.split("/", -1);
        if (segments.length > 2) {
            e.invalidString(path, ref, NOT_A_REQUEST);
            return;
        }
        for (String segment : segments) {
            DraNames.label(segment, path, e);
        }
        boolean known = names.containsKey(segments[0]) && (segments.length == 1
                || (names.get(segments[0]) != null && names.get(segments[0]).contains(segments[1])));
        if (!known) {
            e.invalidString(path, ref, NOT_A_REQUEST);
        }
    }

    /** The tail of kube's {@code validateSet} on named items: too many, then each repeated name. */
    static void limitAndDuplicates(List<JsonNode> items, int max, String path, Errs e) {
        if (items.size() > max) {
            e.tooMany(path, items.size(), max);
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < items.size(); i++) {
            String name = GoValues.text(items.get(i), "name");
            if (!seen.add(name)) {
                e.duplicate(path + "[" + i + "].name", GoStrings.quote(name));
            }
        }
    }
}

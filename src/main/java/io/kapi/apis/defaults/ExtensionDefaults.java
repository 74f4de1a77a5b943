package io.kapi.apis.defaults;

import static io.kapi.apis.defaults.Fields.child;
import static io.kapi.apis.defaults.Fields.ensure;
import static io.kapi.apis.defaults.Fields.items;
import static io.kapi.apis.defaults.Fields.text;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * Defaults of resource.k8s.io/v1 (device requests and taints), apiextensions.k8s.io/v1
 * (CustomResourceDefinition names and conversion) and apiregistration.k8s.io/v1 (APIService port).
 */
public final class ExtensionDefaults {

    private ExtensionDefaults() {
    }

    public static void resourceClaim(ObjectNode object) {
        claimSpec(child(object, "spec"));
    }

    public static void resourceClaimTemplate(ObjectNode object) {
        claimSpec(child(child(object, "spec"), "spec"));
    }

    /** Device taints without timeAdded get the current time, truncated to seconds. */
    public static void resourceSlice(ObjectNode object) {
        for (ObjectNode device : items(child(object, "spec"), "devices")) {
            for (ObjectNode taint : items(device, "taints")) {
                if (Fields.unset(taint, "timeAdded")) {
                    taint.put("timeAdded", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
                }
            }
        }
    }

    public static void customResourceDefinition(ObjectNode object) {
        ObjectNode spec = ensure(object, "spec");
        ObjectNode names = ensure(spec, "names");
        String kind = Fields.text(names, "kind");
        if (!kind.isEmpty()) {
            text(names, "singular", kind.toLowerCase(Locale.ROOT));
            text(names, "listKind", kind + "List");
        }
        ObjectNode conversion = child(spec, "conversion");
        if (conversion == null) {
            spec.putObject("conversion").put("strategy", "None");
        } else {
            PolicyDefaults.servicePort(child(child(conversion, "webhook"), "clientConfig"));
        }
    }

    public static void apiService(ObjectNode object) {
        ObjectNode service = child(child(object, "spec"), "service");
        if (service != null) {
            Fields.integerPointer(service, "port", 443);
        }
    }

    private static void claimSpec(ObjectNode spec) {
        for (ObjectNode request : items(child(spec, "devices"), "requests")) {
            deviceRequest(child(request, "exactly"));
            for (ObjectNode sub : items(request, "firstAvailable")) {
                deviceRequest(sub);
            }
        }
    }

    /** allocationMode ExactCount with count 1; tolerations' operator Equal. */
    private static void deviceRequest(ObjectNode request) {
        if (request == null) {
            return;
        }
        text(request, "allocationMode", "ExactCount");
        if (Fields.text(request, "allocationMode").equals("ExactCount")) {
            Fields.integer(request, "count", 1);
        }
        for (ObjectNode toleration : items(request, "tolerations")) {
            text(toleration, "operator", "Equal");
        }
    }
}

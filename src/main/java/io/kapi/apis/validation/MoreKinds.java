package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.net.IpFamily;
import io.kapi.machinery.validation.Identifiers;
import io.kapi.registry.KindValidator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules of apps/v1 ControllerRevisions ({@code pkg/apis/apps/validation}) and networking.k8s.io/v1
 * IPAddresses and ServiceCIDRs ({@code pkg/apis/networking/validation}), kube 1.34.
 */
public final class MoreKinds {

    /** {@code ValidateControllerRevision} / {@code ValidateControllerRevisionUpdate} (data immutable). */
    public static final KindValidator CONTROLLER_REVISION = Rules.of(MoreKinds::controllerRevision, (o, old, e) -> {
        if (!GoValues.same(o.get("data"), old.get("data"))) {
            e.invalid("data", unknown(o.get("data")), Errs.IMMUTABLE);
        }
    });

    /** {@code ValidateIPAddress}; on update also {@code ValidateIPAddressUpdate} (parentRef immutable). */
    public static final KindValidator IP_ADDRESS = Rules.of(MoreKinds::ipAddress, (o, old, e) -> {
        JsonNode ref = o.path("spec").get("parentRef");
        if (!GoValues.same(ref, old.path("spec").get("parentRef"))) {
            e.invalid("spec.parentRef", parentRef(ref), Errs.IMMUTABLE);
        }
    });

    /** {@code ValidateServiceCIDR}; an update is only {@code ValidateServiceCIDRUpdate}, as kube's strategy. */
    public static final KindValidator SERVICE_CIDR = new Rules(MoreKinds::cidrs, MoreKinds::serviceCidrUpdate);

    private MoreKinds() {
    }

    private static void controllerRevision(ObjectNode o, Errs e) {
        if (GoValues.isUnset(o.get("data"))) {
            e.required("data", "data is mandatory");
        }
        e.nonNegative(o, "revision", "revision");
    }

    /**
     * A v1 {@code RawExtension} as the internal {@code runtime.Object} kube reports it: the
     * {@code runtime.Unknown} holding the JSON bytes (here re-serialised compactly, as kubectl sends them).
     */
    private static String unknown(JsonNode data) {
        if (GoValues.isUnset(data)) {
            return "null";
        }
        byte[] raw = data.toString().getBytes(StandardCharsets.UTF_8);
        StringBuilder b = new StringBuilder("runtime.Unknown{TypeMeta:runtime.TypeMeta{APIVersion:\"\", Kind:\"\"}, Raw:[]uint8{");
        for (int i = 0; i < raw.length; i++) {
            b.append(i > 0 ? ", " : "").append("0x").append(Integer.toHexString(raw[i] & 0xff));
        }
        return b.append("}, ContentEncoding:\"\", ContentType:\"application/json\"}").toString();
    }

    private static void ipAddress(ObjectNode o, Errs e) {
        JsonNode meta = o.path("metadata");
        for (String field : List.of("generateName", "name")) {
            String v = meta.path(field).asText("");
            if (!v.isEmpty()) {
                e.each("metadata." + field, v, StrictIps.ip(v));
            }
        }
        JsonNode ref = o.path("spec").get("parentRef");
        if (GoValues.isUnset(ref)) {
            e.required("spec.parentRef", "");
            return;
        }
        String group = ref.path("group").asText("");
        if (!group.isEmpty()) {
            e.each("spec.parentRef.group", group, Identifiers.dns1123Subdomain(group));
        }
        requiredSegment(ref, "resource", e);
        requiredSegment(ref, "name", e);
        String namespace = ref.path("namespace").asText("");
        if (!namespace.isEmpty()) {
            e.each("spec.parentRef.namespace", namespace, Identifiers.pathSegment(namespace, false));
        }
    }

    private static void requiredSegment(JsonNode ref, String field, Errs e) {
        String v = ref.path(field).asText("");
        if (v.isEmpty()) {
            e.required("spec.parentRef." + field, "");
        } else {
            e.each("spec.parentRef." + field, v, Identifiers.pathSegment(v, false));
        }
    }

    /** {@code *networking.ParentReference} as {@code %#v} prints the dereferenced struct. */
    private static String parentRef(JsonNode ref) {
        if (GoValues.isUnset(ref)) {
            return "null";
        }
        return "networking.ParentReference{Group:" + quoted(ref, "group") + ", Resource:" + quoted(ref, "resource")
                + ", Namespace:" + quoted(ref, "namespace") + ", Name:" + quoted(ref, "name") + "}";
    }

    private static String quoted(JsonNode o, String field) {
        return GoStrings.quote(o.path(field).asText(""));
    }

    /** {@code validateServiceCIDRSpec} on {@code spec.cidrs}. */
    private static void cidrs(ObjectNode o, Errs e) {
        List<String> cidrs = strings(o.path("spec").path("cidrs"));
        String path = "spec.cidrs";
        if (cidrs.isEmpty()) {
            e.required(path, "at least one CIDR required");
            return;
        }
        if (cidrs.size() > 2) {
            e.invalid(path, "networking.ServiceCIDRSpec{CIDRs:" + Go.stringSlice(o.path("spec").get("cidrs")) + "}",
                    "may only hold up to 2 values");
            return;
        }
        for (int i = 0; i < cidrs.size(); i++) {
            e.each(path + "[" + i + "]", cidrs.get(i), StrictIps.cidr(cidrs.get(i)));
        }
        if (cidrs.size() == 2) {
            IpFamily first = StrictIps.family(cidrs.get(0));
            if (first != null && first == StrictIps.family(cidrs.get(1))) {
                e.invalid(path, Go.stringSlice(o.path("spec").get("cidrs")),
                        "may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64");
            }
        }
    }

    /** {@code ValidateServiceCIDRUpdate}: same length, no change; one to two, the first kept and the spec valid. */
    private static void serviceCidrUpdate(ObjectNode o, ObjectNode old, Errs e) {
        List<String> now = strings(o.path("spec").path("cidrs"));
        List<String> before = strings(old.path("spec").path("cidrs"));
        if (now.size() == before.size()) {
            for (int i = 0; i < before.size(); i++) {
                if (!before.get(i).equals(now.get(i))) {
                    e.invalidString("spec.cidrs[" + i + "]", now.get(i), Errs.IMMUTABLE);
                }
            }
        } else if (before.size() == 1 && now.size() == 2) {
            if (!now.get(0).equals(before.get(0))) {
                e.invalidString("spec.cidrs[0]", now.get(0), Errs.IMMUTABLE);
            }
            cidrs(o, e);
        } else {
            e.invalid("spec.cidrs", Go.stringSlice(o.path("spec").get("cidrs")), Errs.IMMUTABLE);
        }
    }

    private static List<String> strings(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.forEach(v -> out.add(v.asText("")));
        return out;
    }
}

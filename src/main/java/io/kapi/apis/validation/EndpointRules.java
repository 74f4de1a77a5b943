package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.validation.Identifiers;
import io.kapi.machinery.validation.ObjectMetaValidator;
import io.kapi.registry.KindValidator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * core/v1 Endpoints, as kube's {@code ValidateEndpointsCreate} / {@code ValidateEndpointsUpdate} (the same
 * checks: an update may move an address to another node), and discovery.k8s.io/v1 EndpointSlices, as
 * {@code ValidateEndpointSliceCreate} / {@code ValidateEndpointSliceUpdate}. An update re-checks a slice's
 * endpoints only when they changed, since stored ones may predate stricter IP rules, and keeps its
 * addressType.
 */
public final class EndpointRules {

    private static final List<String> ADDRESS_TYPES = List.of("FQDN", "IPv4", "IPv6");
    private static final String ZONE_LABEL = "topology.kubernetes.io/zone";
    private static final int MAX_ENDPOINTS = 1000;
    private static final int MAX_ADDRESSES = 100;
    private static final int MAX_PORTS = 20000;
    private static final int MAX_TOPOLOGY_LABELS = 16;
    private static final int MAX_HINTS = 8;

    private EndpointRules() {
    }

    public static final KindValidator ENDPOINTS = Rules.of(EndpointRules::endpoints);
    public static final KindValidator ENDPOINT_SLICE = new Rules((o, e) -> slice(o, null, e), EndpointRules::sliceUpdate);

    /** {@code validateEndpointSubsets}. */
    private static void endpoints(ObjectNode ep, Errs e) {
        List<JsonNode> subsets = GoValues.items(ep, "subsets");
        for (int i = 0; i < subsets.size(); i++) {
            JsonNode ss = subsets.get(i);
            String p = "subsets[" + i + "]";
            List<JsonNode> ready = GoValues.items(ss, "addresses");
            List<JsonNode> notReady = GoValues.items(ss, "notReadyAddresses");
            if (ready.isEmpty() && notReady.isEmpty()) {
                e.required(p, "must specify `addresses` or `notReadyAddresses`");
            }
            for (int j = 0; j < ready.size(); j++) {
                address(ready.get(j), p + ".addresses[" + j + "]", e);
            }
            for (int j = 0; j < notReady.size(); j++) {
                address(notReady.get(j), p + ".notReadyAddresses[" + j + "]", e);
            }
            List<JsonNode> ports = GoValues.items(ss, "ports");
            for (int j = 0; j < ports.size(); j++) {
                port(ports.get(j), ports.size() > 1, p + ".ports[" + j + "]", e);
            }
        }
    }

    /** {@code validateEndpointAddress}. */
    private static void address(JsonNode a, String p, Errs e) {
        String ip = GoValues.text(a, "ip");
        Names.ipSloppy(p + ".ip", ip, e);
        String hostname = GoValues.text(a, "hostname");
        if (!hostname.isEmpty()) {
            e.each(p + ".hostname", hostname, Identifiers.dns1123Label(hostname));
        }
        String node = GoValues.textPointer(a, "nodeName");
        if (node != null) {
            e.each(p + ".nodeName", node, Identifiers.dns1123Subdomain(node));
        }
        SpecialIps.nonSpecial(p + ".ip", ip, e);
    }

    /** {@code validateEndpointPort}: a name is required once there are several ports. */
    private static void port(JsonNode port, boolean requireName, String p, Errs e) {
        String name = GoValues.text(port, "name");
        if (requireName && name.isEmpty()) {
            e.required(p + ".name", "");
        } else if (!name.isEmpty()) {
            e.each(p + ".name", name, Identifiers.dns1123Label(name));
        }
        long number = GoValues.integer(port, "port");
        if (!Names.validPort(number)) {
            e.invalid(p + ".port", Long.toString(number), Names.PORT_RANGE);
        }
        String protocol = GoValues.text(port, "protocol");
        if (protocol.isEmpty()) {
            e.required(p + ".protocol", "");
        } else if (!PodSpecs.PROTOCOLS.contains(protocol)) {
            e.notSupported(p + ".protocol", GoStrings.quote(protocol), PodSpecs.PROTOCOLS);
        }
        appProtocol(port, p, e);
    }

    private static void appProtocol(JsonNode port, String p, Errs e) {
        String app = GoValues.textPointer(port, "appProtocol");
        if (app != null) {
            e.each(p + ".appProtocol", app, Identifiers.qualifiedName(app));
        }
    }

    private static void sliceUpdate(ObjectNode slice, ObjectNode old, Errs e) {
        slice(slice, old, e);
        String type = GoValues.text(slice, "addressType");
        if (!type.equals(GoValues.text(old, "addressType"))) {
            e.invalidString("addressType", type, Errs.IMMUTABLE);
        }
    }

    /** {@code ValidateEndpointSlice}: addressType, ports, then the endpoints unless an update left them as they were. */
    private static void slice(ObjectNode slice, ObjectNode old, Errs e) {
        String type = GoValues.text(slice, "addressType");
        if (type.isEmpty()) {
            e.required("addressType", "");
        } else if (!ADDRESS_TYPES.contains(type)) {
            e.notSupported("addressType", GoStrings.quote(type), ADDRESS_TYPES);
        }
        slicePorts(GoValues.items(slice, "ports"), e);
        if (old == null || !GoValues.at(old, "endpoints").equals(GoValues.at(slice, "endpoints"))) {
            sliceEndpoints(GoValues.items(slice, "endpoints"), type, e);
        }
    }

    /** {@code validatePorts} of discovery: unique names (the empty one too), a known protocol. */
    private static void slicePorts(List<JsonNode> ports, Errs e) {
        if (ports.size() > MAX_PORTS) {
            e.tooMany("ports", ports.size(), MAX_PORTS);
            return;
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < ports.size(); i++) {
            JsonNode port = ports.get(i);
            String p = "ports[" + i + "]";
            String name = GoValues.text(port, "name");
            if (!name.isEmpty()) {
                e.each(p + ".name", name, Identifiers.dns1123Label(name));
            }
            if (!names.add(name)) {
                e.duplicate(p + ".name", GoStrings.quote(name));
            }
            String protocol = GoValues.textPointer(port, "protocol");
            if (protocol == null) {
                e.required(p + ".protocol", "");
            } else if (!PodSpecs.PROTOCOLS.contains(protocol)) {
                e.notSupported(p + ".protocol", GoStrings.quote(protocol), PodSpecs.PROTOCOLS);
            }
            appProtocol(port, p, e);
        }
    }

    /** {@code validateEndpoints} of discovery. */
    private static void sliceEndpoints(List<JsonNode> endpoints, String type, Errs e) {
        if (endpoints.size() > MAX_ENDPOINTS) {
            e.tooMany("endpoints", endpoints.size(), MAX_ENDPOINTS);
            return;
        }
        for (int i = 0; i < endpoints.size(); i++) {
            JsonNode ep = endpoints.get(i);
            String p = "endpoints[" + i + "]";
            sliceAddresses(GoValues.items(ep, "addresses"), type, p + ".addresses", e);
            String node = GoValues.textPointer(ep, "nodeName");
            if (node != null) {
                e.each(p + ".nodeName", node, Identifiers.dns1123Subdomain(node));
            }
            topology(GoValues.at(ep, "deprecatedTopology"), p + ".deprecatedTopology", e);
            String hostname = GoValues.textPointer(ep, "hostname");
            if (hostname != null) {
                e.each(p + ".hostname", hostname, Identifiers.dns1123Label(hostname));
            }
            if (GoValues.has(ep, "hints")) {
                hints(ep.get("hints"), p + ".hints", e);
            }
        }
    }

    /** One to 100 addresses, each checked as the slice's addressType says (an unknown type checks none). */
    private static void sliceAddresses(List<JsonNode> addresses, String type, String p, Errs e) {
        if (addresses.isEmpty()) {
            e.required(p, "must contain at least 1 address");
        } else if (addresses.size() > MAX_ADDRESSES) {
            e.tooMany(p, addresses.size(), MAX_ADDRESSES);
        }
        for (int i = 0; i < addresses.size(); i++) {
            String at = p + "[" + i + "]";
            String address = addresses.get(i).asText();
            switch (type) {
                case "IPv4" -> {
                    Names.ipv4Address(at, address, e);
                    SpecialIps.nonSpecial(at, address, e);
                }
                case "IPv6" -> {
                    Names.ipv6Address(at, address, e);
                    SpecialIps.nonSpecial(at, address, e);
                }
                case "FQDN" -> Names.fullyQualifiedDomainName(at, address, e);
                default -> { }
            }
        }
    }

    /** At most 16 labels, valid ones, and not the zone (which v1 carries in {@code zone}). */
    private static void topology(JsonNode topology, String p, Errs e) {
        if (!topology.isObject()) {
            return;
        }
        if (topology.size() > MAX_TOPOLOGY_LABELS) {
            e.tooMany(p, topology.size(), MAX_TOPOLOGY_LABELS);
        }
        ObjectMetaValidator.validateLabels(topology, p).forEach(e::add);
        if (topology.has(ZONE_LABEL)) {
            e.internal(p + "[" + ZONE_LABEL + "]", "reserved key was not removed in conversion");
        }
    }

    /** {@code validateHints}: at most 8 zones (label values) and 8 nodes (node names), each named once. */
    private static void hints(JsonNode hints, String p, Errs e) {
        if (!hintNames(GoValues.items(hints, "forZones"), p + ".forZones", true, e)) {
            return;
        }
        hintNames(GoValues.items(hints, "forNodes"), p + ".forNodes", false, e);
    }

    /** False when there were too many, which ends kube's hint checks. */
    private static boolean hintNames(List<JsonNode> hints, String p, boolean zones, Errs e) {
        if (hints.size() > MAX_HINTS) {
            e.tooMany(p, hints.size(), MAX_HINTS);
            return false;
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < hints.size(); i++) {
            String at = p + "[" + i + "].name";
            String name = GoValues.text(hints.get(i), "name");
            if (!seen.add(name)) {
                e.duplicate(at, GoStrings.quote(name));
            }
            e.each(at, name, zones ? Identifiers.labelValue(name) : Identifiers.dns1123Subdomain(name));
        }
        return true;
    }
}

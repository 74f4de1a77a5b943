package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.Json;
import io.kapi.machinery.validation.Identifiers;
import io.kapi.machinery.validation.ObjectMetaValidator;
import io.kapi.registry.KindValidator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * core/v1 Services, as kube's {@code ValidateService} and {@code ValidateServiceUpdate}. A service whose
 * {@code clusterIPs} is unset is read as {@code [clusterIP]} (what the service strategy normalises it to), and
 * an update that omits both keeps the allocated ones (what kube's {@code patchAllocatedValues} does).
 */
public final class Services {

    private static final List<String> TYPES = List.of("ClusterIP", "ExternalName", "LoadBalancer", "NodePort");
    private static final List<String> AFFINITY = List.of("ClientIP", "None");
    private static final List<String> FAMILIES = List.of("IPv4", "IPv6");
    private static final List<String> FAMILY_POLICIES = List.of("PreferDualStack", "RequireDualStack", "SingleStack");
    private static final List<String> TRAFFIC_POLICIES = List.of("Cluster", "Local");
    private static final List<String> DISTRIBUTIONS = List.of("PreferClose", "PreferSameNode", "PreferSameZone");

    private Services() {
    }

    public static final KindValidator RULES = new Rules(Services::create, Services::update);

    private static void create(ObjectNode svc, Errs e) {
        validate(svc, clusterIPs(GoValues.at(svc, "spec")), e);
    }

    /** The effective clusterIPs: the field, else {@code [clusterIP]}, else empty. */
    static ArrayNode clusterIPs(JsonNode spec) {
        ArrayNode ips = Json.NODES.arrayNode();
        if (!GoValues.at(spec, "clusterIPs").isEmpty()) {
            GoValues.items(spec.get("clusterIPs")).forEach(ips::add);
        } else if (!GoValues.text(spec, "clusterIP").isEmpty()) {
            ips.add(GoValues.text(spec, "clusterIP"));
        }
        return ips;
    }

    private static boolean headless(ArrayNode ips) {
        return ips.size() == 1 && ips.get(0).asText().equals("None");
    }

    private static void validate(ObjectNode svc, ArrayNode ips, Errs e) {
        JsonNode spec = GoValues.at(svc, "spec");
        String type = GoValues.text(spec, "type");
        List<JsonNode> ports = GoValues.items(spec.get("ports"));
        boolean headless = headless(ips);
        if (ports.isEmpty() && !headless && !type.equals("ExternalName")) {
            e.required("spec.ports", "");
        }
        switch (type) {
            case "LoadBalancer", "NodePort" -> {
                if (headless) {
                    e.invalidString("spec.clusterIPs[0]", "None", "may not be set to 'None' for " + type + " services");
                }
            }
            case "ExternalName" -> {
                if (!ips.isEmpty()) {
                    e.forbidden("spec.clusterIPs", "may not be set for ExternalName services");
                }
                if (!GoValues.at(spec, "ipFamilies").isEmpty()) {
                    e.forbidden("spec.ipFamilies", "may not be set for ExternalName services");
                }
                if (GoValues.has(spec, "ipFamilyPolicy")) {
                    e.forbidden("spec.ipFamilyPolicy", "may not be set for ExternalName services");
                }
                String cname = GoValues.text(spec, "externalName");
                cname = cname.endsWith(".") ? cname.substring(0, cname.length() - 1) : cname;
                if (cname.isEmpty()) {
                    e.required("spec.externalName", "");
                } else {
                    e.each("spec.externalName", cname, Identifiers.dns1123Subdomain(cname));
                }
            }
            default -> { }
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < ports.size(); i++) {
            port(ports.get(i), ports.size() > 1, names, "spec.ports[" + i + "]", e);
        }
        if (GoValues.has(spec, "selector")) {
            ObjectMetaValidator.validateLabels(spec.get("selector"), "spec.selector").forEach(e::add);
        }
        String affinity = GoValues.text(spec, "sessionAffinity");
        if (!affinity.isEmpty() && !AFFINITY.contains(affinity)) {
            e.notSupported("spec.sessionAffinity", GoStrings.quote(affinity), AFFINITY);
        }
        if (affinity.equals("None") && GoValues.has(spec, "sessionAffinityConfig")) {
            e.forbidden("spec.sessionAffinityConfig", "must not be set when session affinity is None");
        }
        JsonNode timeout = GoValues.at(spec, "sessionAffinityConfig", "clientIP", "timeoutSeconds");
        if (affinity.equals("ClientIP") && timeout.isNumber() && (timeout.asLong() <= 0 || timeout.asLong() > 86400)) {
            e.invalid("spec.sessionAffinityConfig.clientIP.timeoutSeconds", timeout.asText(),
                    "must be greater than 0 and less than 86400");
        }
        if (!type.equals("ExternalName")) {
            clusterIPsRelated(spec, ips, e);
        }
        List<JsonNode> external = GoValues.items(spec.get("externalIPs"));
        for (int i = 0; i < external.size(); i++) {
            Names.ip("spec.externalIPs[" + i + "]", external.get(i).asText(), e);
        }
        if (!type.isEmpty() && !TYPES.contains(type)) {
            e.notSupported("spec.type", GoStrings.quote(type), TYPES);
        }
        portConflicts(ports, type, e);
        if (!GoValues.at(spec, "loadBalancerSourceRanges").isEmpty()) {
            if (!type.equals("LoadBalancer")) {
                e.forbidden("spec.LoadBalancerSourceRanges", "may only be used when `type` is 'LoadBalancer'");
            }
            List<JsonNode> ranges = GoValues.items(spec.get("loadBalancerSourceRanges"));
            for (int i = 0; i < ranges.size(); i++) {
                Names.cidr("spec.LoadBalancerSourceRanges[" + i + "]", ranges.get(i).asText().strip(), e);
            }
        }
        if (GoValues.has(spec, "allocateLoadBalancerNodePorts") && !type.equals("LoadBalancer")) {
            e.forbidden("spec.allocateLoadBalancerNodePorts", "may only be used when `type` is 'LoadBalancer'");
        }
        trafficPolicies(spec, type, external.isEmpty(), e);
    }

    private static void port(JsonNode port, boolean requireName, Set<String> names, String path, Errs e) {
        String name = GoValues.text(port, "name");
        if (requireName && name.isEmpty()) {
            e.required(path + ".name", "");
        } else if (!name.isEmpty()) {
            e.each(path + ".name", name, Identifiers.dns1123Label(name));
            if (!names.add(name)) {
                e.duplicate(path + ".name", GoStrings.quote(name));
            }
        }
        long number = GoValues.at(port, "port").asLong(0);
        if (!Names.validPort(number)) {
            e.invalid(path + ".port", Long.toString(number), Names.PORT_RANGE);
        }
        String protocol = GoValues.text(port, "protocol");
        if (!protocol.isEmpty() && !PodSpecs.PROTOCOLS.contains(protocol)) {
            e.notSupported(path + ".protocol", GoStrings.quote(protocol), PodSpecs.PROTOCOLS);
        }
        if (GoValues.has(port, "targetPort")) {
            Containers.portNumOrName(port.get("targetPort"), path + ".targetPort", e);
        }
        if (GoValues.has(port, "appProtocol")) {
            String app = GoValues.text(port, "appProtocol");
            e.each(path + ".appProtocol", app, Identifiers.qualifiedName(app));
        }
    }

    private static void portConflicts(List<JsonNode> ports, String type, Errs e) {
        Set<String> nodePorts = new HashSet<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < ports.size(); i++) {
            JsonNode p = ports.get(i);
            long nodePort = GoValues.at(p, "nodePort").asLong(0);
            String protocol = GoValues.text(p, "protocol").isEmpty() ? "TCP" : GoValues.text(p, "protocol");
            if (type.equals("ClusterIP") && nodePort != 0) {
                e.forbidden("spec.ports[" + i + "].nodePort", "may not be used when `type` is 'ClusterIP'");
            }
            if (nodePort != 0 && !nodePorts.add(protocol + "/" + nodePort)) {
                e.duplicate("spec.ports[" + i + "].nodePort", Long.toString(nodePort));
            }
            long number = GoValues.at(p, "port").asLong(0);
            if (!seen.add(protocol + "/" + number)) {
                e.duplicate("spec.ports[" + i + "]", "core.ServicePort{Name:\"\", Protocol:" + GoStrings.quote(protocol)
                        + ", AppProtocol:(*string)(nil), Port:" + number
                        + ", TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:\"\"}, NodePort:0}");
            }
        }
    }

    private static void clusterIPsRelated(JsonNode spec, ArrayNode ips, Errs e) {
        String clusterIP = GoValues.text(spec, "clusterIP");
        if (!clusterIP.isEmpty()) {
            if (!ips.get(0).asText().equals(clusterIP)) {
                e.invalid("spec.clusterIPs", Go.stringSlice(ips), "first value must match `clusterIP`");
            }
        } else if (!ips.isEmpty()) {
            e.invalid("spec.clusterIPs", Go.stringSlice(ips), "must be empty when `clusterIP` is not specified");
        }
        List<JsonNode> families = GoValues.items(spec.get("ipFamilies"));
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < families.size(); i++) {
            String f = families.get(i).asText();
            if (!FAMILIES.contains(f)) {
                e.notSupported("spec.ipFamilies[" + i + "]", GoStrings.quote(f), FAMILIES);
            }
            if (!seen.add(f)) {
                e.duplicate("spec.ipFamilies[" + i + "]", GoStrings.quote(f));
            }
        }
        String policy = GoValues.text(spec, "ipFamilyPolicy");
        if (GoValues.has(spec, "ipFamilyPolicy") && !FAMILY_POLICIES.contains(policy)) {
            e.notSupported("spec.ipFamilyPolicy", GoStrings.quote(policy), FAMILY_POLICIES);
        }
        boolean bad = false;
        for (int i = 0; i < ips.size(); i++) {
            String ip = ips.get(i).asText();
            if (i == 0 && ip.equals("None")) {
                if (ips.size() > 1) {
                    bad = true;
                    e.invalid("spec.clusterIPs", Go.stringSlice(ips), "'None' must be the first and only value");
                }
                continue;
            }
            if (!Names.isIp(ip)) {
                bad = true;
                Names.ip("spec.clusterIPs[" + i + "]", ip, e);
            }
        }
        if (ips.size() > 2) {
            e.invalid("spec.clusterIPs", Go.stringSlice(ips), "may only hold up to 2 values");
        }
        if (bad) {
            return;
        }
        if (ips.size() > 1 && Names.isIpv6(ips.get(0).asText()) == Names.isIpv6(ips.get(1).asText())) {
            e.invalid("spec.clusterIPs", Go.stringSlice(ips), "may specify no more than one IP for each IP family");
        }
        if (!headless(ips)) {
            for (int i = 0; i < ips.size() && i < families.size(); i++) {
                String ip = ips.get(i).asText();
                String f = families.get(i).asText();
                if (f.equals("IPv4") && Names.isIpv6(ip)) {
                    e.invalidString("spec.clusterIPs[" + i + "]", ip,
                            "expected an IPv4 value as indicated by `ipFamilies[" + i + "]`");
                }
                if (f.equals("IPv6") && !Names.isIpv6(ip)) {
                    e.invalidString("spec.clusterIPs[" + i + "]", ip,
                            "expected an IPv6 value as indicated by `ipFamilies[" + i + "]`");
                }
            }
        }
    }

    private static void trafficPolicies(JsonNode spec, String type, boolean noExternalIPs, Errs e) {
        boolean external = type.equals("LoadBalancer") || type.equals("NodePort")
                || (type.equals("ClusterIP") && !noExternalIPs);
        String etp = GoValues.text(spec, "externalTrafficPolicy");
        if (!external && !etp.isEmpty()) {
            e.invalidString("spec.externalTrafficPolicy", etp, "may only be set for externally-accessible services");
        } else if (external && !etp.isEmpty() && !TRAFFIC_POLICIES.contains(etp)) {
            e.notSupported("spec.externalTrafficPolicy", GoStrings.quote(etp), TRAFFIC_POLICIES);
        }
        String itp = GoValues.text(spec, "internalTrafficPolicy");
        if (GoValues.has(spec, "internalTrafficPolicy") && !TRAFFIC_POLICIES.contains(itp)) {
            e.notSupported("spec.internalTrafficPolicy", GoStrings.quote(itp), TRAFFIC_POLICIES);
        }
        String td = GoValues.text(spec, "trafficDistribution");
        if (GoValues.has(spec, "trafficDistribution") && !DISTRIBUTIONS.contains(td)) {
            e.notSupported("spec.trafficDistribution", GoStrings.quote(td), DISTRIBUTIONS);
        }
    }

    private static void update(ObjectNode svc, ObjectNode old, Errs e) {
        JsonNode spec = GoValues.at(svc, "spec");
        JsonNode oldSpec = GoValues.at(old, "spec");
        ArrayNode oldIps = clusterIPs(oldSpec);
        ArrayNode ips = clusterIPs(spec);
        // kube syncs a changed clusterIP into clusterIPs, and keeps allocated IPs the request omits
        if (!GoValues.text(spec, "clusterIP").equals(GoValues.text(oldSpec, "clusterIP"))
                && GoValues.same(spec.get("clusterIPs"), oldSpec.get("clusterIPs")) && !ips.isEmpty()
                && !GoValues.text(spec, "clusterIP").isEmpty()) {
            ips.set(0, GoValues.text(spec, "clusterIP"));
        }
        if (ips.isEmpty() && GoValues.text(spec, "clusterIP").isEmpty()) {
            ips = oldIps.deepCopy();
        }
        String type = GoValues.text(spec, "type");
        String oldType = GoValues.text(oldSpec, "type");
        if (!type.equals("ExternalName") && !oldType.equals("ExternalName") && !(headless(ips) && headless(oldIps))) {
            if (oldIps.size() == ips.size()) {
                for (int i = 0; i < oldIps.size(); i++) {
                    if (!oldIps.get(i).asText().equals(ips.get(i).asText())) {
                        e.invalid("spec.clusterIPs[" + i + "]", Go.stringSlice(ips), "may not change once set");
                    }
                }
            } else if (oldIps.size() > ips.size()) {
                if (ips.isEmpty()) {
                    e.invalid("spec.clusterIPs[0]", Go.stringSlice(ips), "primary clusterIP can not be unset");
                } else if (!ips.get(0).asText().equals(oldIps.get(0).asText())) {
                    e.invalid("spec.clusterIPs[0]", Go.stringSlice(ips), "may not change once set");
                }
            } else if (!oldIps.isEmpty() && !ips.get(0).asText().equals(oldIps.get(0).asText())) {
                e.invalid("spec.clusterIPs[0]", Go.stringSlice(ips), "may not change once set");
            }
        }
        ArrayNode effective = GoValues.text(spec, "clusterIP").isEmpty() && clusterIPs(spec).isEmpty() ? null : ips;
        validate(svc, effective == null ? clusterIPs(spec) : effective, e);
    }
}

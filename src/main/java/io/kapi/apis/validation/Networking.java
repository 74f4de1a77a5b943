package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.validation.Identifiers;
import io.kapi.registry.KindValidator;
import java.util.List;

/** networking.k8s.io/v1 Ingresses and NetworkPolicies. */
public final class Networking {

    private static final List<String> PATH_TYPES = List.of("Exact", "ImplementationSpecific", "Prefix");
    private static final List<String> POLICY_TYPES = List.of("Egress", "Ingress");

    private Networking() {
    }

    public static final KindValidator INGRESS = Rules.of(Networking::ingress);
    public static final KindValidator NETWORK_POLICY = Rules.of(Networking::networkPolicy);

    private static void ingress(ObjectNode ing, Errs e) {
        JsonNode spec = GoValues.at(ing, "spec");
        List<JsonNode> rules = GoValues.items(spec.get("rules"));
        if (!GoValues.has(spec, "defaultBackend") && rules.isEmpty()) {
            e.invalid("spec.rules", "[]networking.IngressRule(nil)", "either `defaultBackend` or `rules` must be specified");
        }
        if (GoValues.has(spec, "defaultBackend")) {
            backend(spec.get("defaultBackend"), "spec.defaultBackend", e);
        }
        for (int i = 0; i < rules.size(); i++) {
            JsonNode r = rules.get(i);
            String p = "spec.rules[" + i + "]";
            String host = GoValues.text(r, "host");
            if (!host.isEmpty()) {
                if (Names.isIp(host)) {
                    e.invalidString(p + ".host", host, "must be a DNS name, not an IP address");
                }
                String checked = host.startsWith("*.") ? host.substring(2) : host;
                if (host.contains("*") && !host.startsWith("*.")) {
                    e.invalidString(p + ".host", host, Go.regexError("a wildcard DNS-1123 subdomain must start "
                            + "with '*.', followed by a valid DNS subdomain, which must consist of lower case "
                            + "alphanumeric characters, '-' or '.' and end with an alphanumeric character",
                            "\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*", "*.example.com"));
                } else {
                    e.each(p + ".host", host, Identifiers.dns1123Subdomain(checked));
                }
            }
            if (!GoValues.has(r, "http")) {
                continue;
            }
            List<JsonNode> paths = GoValues.items(GoValues.at(r, "http", "paths"));
            if (paths.isEmpty()) {
                e.required(p + ".http.paths", "");
            }
            for (int j = 0; j < paths.size(); j++) {
                httpPath(paths.get(j), p + ".http.paths[" + j + "]", e);
            }
        }
        String cls = GoValues.text(spec, "ingressClassName");
        if (GoValues.has(spec, "ingressClassName")) {
            e.each("spec.ingressClassName", cls, Identifiers.dns1123Subdomain(cls));
        }
    }

    private static void httpPath(JsonNode path, String p, Errs e) {
        String value = GoValues.text(path, "path");
        if (!GoValues.has(path, "pathType")) {
            e.required(p + ".pathType", "pathType must be specified");
        } else {
            String type = GoValues.text(path, "pathType");
            switch (type) {
                case "Exact", "Prefix" -> {
                    if (!value.startsWith("/")) {
                        e.invalidString(p + ".path", value, "must be an absolute path");
                    }
                }
                case "ImplementationSpecific" -> {
                    if (!value.isEmpty() && !value.startsWith("/")) {
                        e.invalidString(p + ".path", value, "must be an absolute path");
                    }
                }
                default -> e.notSupported(p + ".pathType", GoStrings.quote(type), PATH_TYPES);
            }
        }
        backend(GoValues.at(path, "backend"), p + ".backend", e);
    }

    private static void backend(JsonNode b, String path, Errs e) {
        boolean service = GoValues.has(b, "service");
        boolean resource = GoValues.has(b, "resource");
        if (service && resource) {
            e.invalid(path, "networking.IngressBackend{...}", "cannot set both resource and service backends");
        } else if (!service && !resource) {
            e.invalid(path, "networking.IngressBackend{...}", "one backend (service or resource) must be specified");
        }
        if (!service) {
            return;
        }
        JsonNode svc = b.get("service");
        String name = GoValues.text(svc, "name");
        if (name.isEmpty()) {
            e.required(path + ".service.name", "");
        } else {
            e.each(path + ".service.name", name, Identifiers.dns1035Label(name));
        }
        JsonNode port = GoValues.at(svc, "port");
        boolean hasName = !GoValues.text(port, "name").isEmpty();
        boolean hasNumber = port.path("number").asLong(0) != 0;
        if (hasName && hasNumber) {
            e.invalid(path + ".service.port", "networking.ServiceBackendPort{...}", "cannot set both port name & port number");
        } else if (hasName) {
            e.each(path + ".service.port.name", GoValues.text(port, "name"), Names.portName(GoValues.text(port, "name")));
        } else if (hasNumber) {
            long n = port.path("number").asLong();
            if (!Names.validPort(n)) {
                e.invalid(path + ".service.port.number", Long.toString(n), Names.PORT_RANGE);
            }
        } else {
            e.required(path + ".service.port", "port name or number is required");
        }
    }

    private static void networkPolicy(ObjectNode np, Errs e) {
        JsonNode spec = GoValues.at(np, "spec");
        Selectors.validate(GoValues.at(spec, "podSelector"), "spec.podSelector", e);
        for (String dir : List.of("ingress", "egress")) {
            List<JsonNode> rules = GoValues.items(spec.get(dir));
            String peers = dir.equals("ingress") ? "from" : "to";
            for (int i = 0; i < rules.size(); i++) {
                String p = "spec." + dir + "[" + i + "]";
                List<JsonNode> ports = GoValues.items(rules.get(i).get("ports"));
                for (int j = 0; j < ports.size(); j++) {
                    netPort(ports.get(j), p + ".ports[" + j + "]", e);
                }
                List<JsonNode> ps = GoValues.items(rules.get(i).get(peers));
                for (int j = 0; j < ps.size(); j++) {
                    peer(ps.get(j), p + "." + peers + "[" + j + "]", e);
                }
            }
        }
        List<JsonNode> types = GoValues.items(spec.get("policyTypes"));
        for (int i = 0; i < types.size(); i++) {
            if (!POLICY_TYPES.contains(types.get(i).asText())) {
                e.notSupported("spec.policyTypes[" + i + "]", GoStrings.quote(types.get(i).asText()), POLICY_TYPES);
            }
        }
        if (types.size() > 2) {
            e.invalid("spec.policyTypes", Go.stringSlice(spec.get("policyTypes")), "may not specify more than two policyTypes");
        }
    }

    private static void netPort(JsonNode port, String p, Errs e) {
        String protocol = GoValues.text(port, "protocol");
        if (GoValues.has(port, "protocol") && !PodSpecs.PROTOCOLS.contains(protocol)) {
            e.notSupported(p + ".protocol", GoStrings.quote(protocol), PodSpecs.PROTOCOLS);
        }
        JsonNode number = port.get("port");
        if (number != null && !number.isNull()) {
            Containers.portNumOrName(number, p + ".port", e);
        }
        JsonNode end = port.get("endPort");
        if (end != null && end.isNumber()) {
            if (number == null || !number.isNumber()) {
                e.required(p + ".port", "must be specified when endPort is set");
            } else if (end.asLong() < number.asLong()) {
                e.invalid(p + ".endPort", end.asText(), "must be greater than or equal to `port`");
            }
        }
    }

    private static void peer(JsonNode peer, String p, Errs e) {
        int n = 0;
        if (GoValues.has(peer, "podSelector")) {
            n++;
            Selectors.validate(peer.get("podSelector"), p + ".podSelector", e);
        }
        if (GoValues.has(peer, "namespaceSelector")) {
            n++;
            Selectors.validate(peer.get("namespaceSelector"), p + ".namespaceSelector", e);
        }
        if (GoValues.has(peer, "ipBlock")) {
            n++;
            JsonNode block = peer.get("ipBlock");
            String cidr = GoValues.text(block, "cidr");
            if (cidr.isEmpty()) {
                e.required(p + ".ipBlock.cidr", "");
            } else {
                Names.cidr(p + ".ipBlock.cidr", cidr, e);
            }
            List<JsonNode> except = GoValues.items(block.get("except"));
            for (int i = 0; i < except.size(); i++) {
                Names.cidr(p + ".ipBlock.except[" + i + "]", except.get(i).asText(), e);
            }
        }
        if (n == 0) {
            e.required(p, "must specify a peer");
        } else if (GoValues.has(peer, "ipBlock") && n > 1) {
            e.forbidden(p, "may not specify both ipBlock and another peer");
        }
    }
}

package io.kapi.endpoint.table;

import static io.kapi.endpoint.table.Columns.age;
import static io.kapi.endpoint.table.Columns.nameColumn;
import static io.kapi.registry.table.Column.string;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoValues;
import io.kapi.registry.table.Doc;
import io.kapi.registry.table.KindPrinter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The tables of the {@code networking.k8s.io} and {@code discovery.k8s.io} groups. */
public final class NetworkingPrinters {

    private NetworkingPrinters() {
    }

    public static KindPrinter ingresses() {
        return KindPrinter.of(nameColumn(),
                string("Class", Doc.text("The name of the IngressClass resource that should be used for additional configuration"),
                        (o, now) -> GoValues.textOr(o, Labels.NONE, "spec", "ingressClassName")),
                string("Hosts", Doc.text("Hosts that incoming requests are matched against before the ingress rule"),
                        (o, now) -> hosts(o)),
                string("Address", Doc.text("Address is a list containing ingress points for the load-balancer"),
                        (o, now) -> CorePrinters.loadBalancerIngress(GoValues.at(o, "status", "loadBalancer"))),
                string("Ports", Doc.text("Ports of TLS configurations that open"),
                        (o, now) -> GoValues.size(o, "spec", "tls") > 0 ? "80, 443" : "80"),
                age());
    }

    public static KindPrinter ingressClasses() {
        return KindPrinter.of(nameColumn(),
                string("Controller", Doc.text("Controller that is responsible for handling this class"),
                        (o, now) -> GoValues.text(o, "spec", "controller")),
                string("Parameters", Doc.text("A reference to a resource with additional parameters"),
                        (o, now) -> parameters(o)),
                age());
    }

    public static KindPrinter networkPolicies() {
        return KindPrinter.of(nameColumn(),
                string("Pod-Selector", Doc.api("networking.v1", "NetworkPolicySpec", "podSelector"),
                        (o, now) -> Labels.formatSelector(GoValues.at(o, "spec", "podSelector"))),
                age());
    }

    public static KindPrinter serviceCidrs() {
        return KindPrinter.of(nameColumn(),
                string("CIDRs", Doc.api("networking.v1", "ServiceCIDRSpec", "cidrs"), (o, now) -> joined(o, "spec", "cidrs")),
                age());
    }

    public static KindPrinter ipAddresses() {
        return KindPrinter.of(nameColumn(),
                string("ParentRef", Doc.api("networking.v1", "IPAddressSpec", "parentRef"), (o, now) -> parentRef(o)));
    }

    public static KindPrinter endpointSlices() {
        return KindPrinter.of(nameColumn(),
                string("AddressType", Doc.api("discovery.v1", "EndpointSlice", "addressType"), (o, now) -> GoValues.text(o, "addressType")),
                string("Ports", Doc.api("discovery.v1", "EndpointSlice", "ports"), (o, now) -> Endpoints.slicePorts(o)),
                string("Endpoints", Doc.api("discovery.v1", "EndpointSlice", "endpoints"), (o, now) -> Endpoints.sliceEndpoints(o)),
                age());
    }

    /** {@code formatHosts}: up to three rule hosts, {@code *} when no rule names one. */
    private static String hosts(JsonNode ing) {
        List<JsonNode> rules = GoValues.items(ing, "spec", "rules");
        List<String> list = new ArrayList<>();
        boolean more = false;
        for (JsonNode rule : rules) {
            if (list.size() == 3) {
                more = true;
            }
            String host = GoValues.text(rule, "host");
            if (!more && !host.isEmpty()) {
                list.add(host);
            }
        }
        if (list.isEmpty()) {
            return "*";
        }
        String ret = String.join(",", list);
        return more ? ret + " + " + (rules.size() - 3) + " more..." : ret;
    }

    private static String parameters(JsonNode ic) {
        JsonNode p = GoValues.at(ic, "spec", "parameters");
        if (!p.isObject()) {
            return Labels.NONE;
        }
        String s = GoValues.text(p, "kind");
        if (GoValues.has(p, "apiGroup")) {
            s = s + "." + GoValues.text(p, "apiGroup");
        }
        return s + "/" + GoValues.text(p, "name");
    }

    private static String parentRef(JsonNode ip) {
        JsonNode ref = GoValues.at(ip, "spec", "parentRef");
        if (!ref.isObject()) {
            return Labels.NONE;
        }
        String group = GoValues.text(ref, "group");
        String resource = GoValues.text(ref, "resource");
        String s = (group.isEmpty() ? resource : resource + "." + group).toLowerCase(Locale.ROOT);
        if (!GoValues.text(ref, "namespace").isEmpty()) {
            s += "/" + GoValues.text(ref, "namespace");
        }
        return s + "/" + GoValues.text(ref, "name");
    }

    static String joined(JsonNode obj, String... path) {
        List<String> out = new ArrayList<>();
        GoValues.items(obj, path).forEach(v -> out.add(v.asText()));
        return String.join(",", out);
    }
}

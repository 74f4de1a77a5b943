package io.kapi.apis.defaults;

import static io.kapi.apis.defaults.Fields.child;
import static io.kapi.apis.defaults.Fields.items;
import static io.kapi.apis.defaults.Fields.textPointer;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** networking.k8s.io/v1 and discovery.k8s.io/v1 defaults. */
public final class NetworkingDefaults {

    private NetworkingDefaults() {
    }

    /** Ports TCP; policyTypes Ingress, plus Egress when egress rules are given. */
    public static void networkPolicy(ObjectNode object) {
        ObjectNode spec = Fields.ensure(object, "spec");
        for (String direction : new String[] {"ingress", "egress"}) {
            for (ObjectNode rule : items(spec, direction)) {
                for (ObjectNode port : items(rule, "ports")) {
                    textPointer(port, "protocol", "TCP");
                }
            }
        }
        if (Fields.empty(spec, "policyTypes")) {
            ArrayNode types = spec.putArray("policyTypes").add("Ingress");
            if (!Fields.empty(spec, "egress")) {
                types.add("Egress");
            }
        }
    }

    public static void ingressClass(ObjectNode object) {
        ObjectNode parameters = child(child(object, "spec"), "parameters");
        if (parameters != null) {
            textPointer(parameters, "scope", "Cluster");
        }
    }

    /** Each port named "" and TCP when unset. */
    public static void endpointSlice(ObjectNode object) {
        for (ObjectNode port : items(object, "ports")) {
            textPointer(port, "name", "");
            textPointer(port, "protocol", "TCP");
        }
    }
}

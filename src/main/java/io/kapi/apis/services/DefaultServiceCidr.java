package io.kapi.apis.services;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.registry.ResourceStore;
import java.time.Instant;
import java.util.List;
import io.kapi.registry.SystemWrites;

/**
 * The {@code kubernetes} ServiceCIDR that kube-apiserver's default-servicecidr controller keeps for the
 * configured {@code --service-cluster-ip-range}, created once and marked Ready.
 */
final class DefaultServiceCidr {

    static final String NAME = "kubernetes";

    private DefaultServiceCidr() {
    }

    static void ensure(ResourceStore serviceCidrs, List<IpRange> ranges) {
        try {
            serviceCidrs.get("", NAME);
            return;
        } catch (ApiException e) {
            if (e.code() != 404) {
                throw e;
            }
        }
        ObjectNode cidr = Json.MAPPER.createObjectNode();
        cidr.put("apiVersion", "networking.k8s.io/v1");
        cidr.put("kind", "ServiceCIDR");
        cidr.putObject("metadata").put("name", NAME);
        ArrayNode cidrs = cidr.putObject("spec").putArray("cidrs");
        ranges.forEach(r -> cidrs.add(r.cidr()));
        ObjectNode created;
        try {
            created = SystemWrites.create(serviceCidrs, "", cidr);
        } catch (ApiException e) {
            if (e.code() == 409) {
                return;
            }
            throw e;
        }
        SystemWrites.updateStatus(serviceCidrs, "", NAME, current -> {
            ObjectNode condition = current.putObject("status").putArray("conditions").addObject();
            condition.put("type", "Ready");
            condition.put("status", "True");
            condition.put("lastTransitionTime", ObjectMeta.format(Instant.now()));
            condition.put("reason", "");
            condition.put("message", "Kubernetes Service CIDR is ready");
            return current;
        });
    }
}

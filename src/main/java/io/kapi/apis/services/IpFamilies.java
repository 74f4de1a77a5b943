package io.kapi.apis.services;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoStrings;
import java.util.ArrayList;
import java.util.List;

/**
 * kube-apiserver's {@code initIPFamilyFields}: fills {@code spec.ipFamilyPolicy} and
 * {@code spec.ipFamilies} from what the client set and the cluster's families, and refuses families
 * and policies the cluster cannot serve.
 */
final class IpFamilies {

    private final List<String> clusterFamilies;

    /** @param clusterFamilies the families of the configured ranges, primary first */
    IpFamilies(List<String> clusterFamilies) {
        this.clusterFamilies = clusterFamilies;
    }

    boolean dualStack() {
        return clusterFamilies.size() == 2;
    }

    /** Defaults the family fields in place; returns the errors (empty when the service can be served). */
    List<FieldError> init(ObjectNode service) {
        ObjectNode spec = ServiceSpec.spec(service);
        if (!ServiceSpec.needsClusterIp(service)) {
            spec.remove("ipFamilies");
            spec.remove("ipFamilyPolicy");
            return List.of();
        }
        List<String> families = ServiceSpec.families(service);
        List<String> ips = ServiceSpec.isHeadless(service) ? List.of() : ServiceSpec.clusterIps(service);
        List<FieldError> errors = new ArrayList<>();
        for (int i = 0; i < ips.size(); i++) {
            String family = IpRange.familyOf(ips.get(i));
            if (family == null) {
                return List.of();   // not an IP: the service validation reports it
            }
            if (i >= families.size()) {
                families.add(family);
            }
        }
        String policy = spec.path("ipFamilyPolicy").asText("");
        if (policy.isEmpty() && (families.size() == 2 || ips.size() == 2)) {
            policy = "RequireDualStack";
        }
        if (ServiceSpec.isHeadless(service) && service.path("spec").path("selector").isEmpty()) {
            if (policy.isEmpty()) {
                policy = dualStack() ? "RequireDualStack" : "SingleStack";
            }
            if (families.isEmpty()) {
                families.add(clusterFamilies.getFirst());
            }
            if (families.size() < 2 && !policy.equals("SingleStack")) {
                families.add(other(families.getFirst()));
            }
            spec.put("ipFamilyPolicy", policy);
            ServiceSpec.setFamilies(service, families);
            return List.of();
        }
        if (policy.isEmpty()) {
            policy = "SingleStack";
        }
        if (policy.equals("RequireDualStack") && !dualStack()) {
            errors.add(FieldError.invalid("spec.ipFamilyPolicy", "\"RequireDualStack\"",
                    "this cluster is not configured for dual-stack services"));
        }
        for (int i = 0; i < families.size(); i++) {
            if (!clusterFamilies.contains(families.get(i))) {
                errors.add(FieldError.invalid("spec.ipFamilies[" + i + "]", GoStrings.quote(families.get(i)),
                        "not configured on this cluster"));
            }
        }
        if (families.isEmpty()) {
            families.add(clusterFamilies.getFirst());
        }
        if (!policy.equals("SingleStack") && dualStack() && families.size() == 1) {
            families.add(other(families.getFirst()));
        }
        spec.put("ipFamilyPolicy", policy);
        ServiceSpec.setFamilies(service, families);
        return errors;
    }

    private static String other(String family) {
        return family.equals("IPv4") ? "IPv6" : "IPv4";
    }
}

package io.kapi.machinery.validation;

import java.util.List;
import java.util.Map;

/**
 * How a resource's object names are validated: kube-apiserver's {@code ValidateNameFunc}s. Each rule
 * returns kube's messages for a name, or for a {@code generateName} prefix (whose trailing dash is allowed,
 * since random characters follow it).
 */
public enum NameRule {
    /** Most resources: {@code NameIsDNSSubdomain}. */
    DNS1123_SUBDOMAIN,
    /** Namespaces: {@code ValidateNamespaceName}. */
    DNS1123_LABEL,
    /** Services: {@code ValidateServiceName}. */
    DNS1035_LABEL,
    /** RBAC roles and bindings, CSRs, APIServices: {@code path.IsValidPathSegmentName}. */
    PATH_SEGMENT;

    /**
     * Name rules by qualified resource ({@code resource} or {@code resource.group}); absent means
     * {@link #DNS1123_SUBDOMAIN}. kube-apiserver also applies {@link #PATH_SEGMENT} to every name.
     */
    private static final Map<String, NameRule> BY_RESOURCE = Map.of(
            "namespaces", DNS1123_LABEL,
            "services", DNS1035_LABEL,
            "roles.rbac.authorization.k8s.io", PATH_SEGMENT,
            "clusterroles.rbac.authorization.k8s.io", PATH_SEGMENT,
            "rolebindings.rbac.authorization.k8s.io", PATH_SEGMENT,
            "clusterrolebindings.rbac.authorization.k8s.io", PATH_SEGMENT,
            "certificatesigningrequests.certificates.k8s.io", PATH_SEGMENT,
            "apiservices.apiregistration.k8s.io", PATH_SEGMENT,
            // kube checks an IPAddress name is an IP in canonical form; IPv6 ones are no DNS names
            "ipaddresses.networking.k8s.io", PATH_SEGMENT);

    /** The rule for a resource of a group ({@code ""} for core). */
    public static NameRule forResource(String group, String resource) {
        String key = group == null || group.isEmpty() ? resource : resource + "." + group;
        return BY_RESOURCE.getOrDefault(key, DNS1123_SUBDOMAIN);
    }

    /** kube's messages for {@code name}, empty when valid; {@code prefix} for a generateName. */
    public List<String> check(String name, boolean prefix) {
        String value = prefix ? maskTrailingDash(name) : name;
        return switch (this) {
            case DNS1123_SUBDOMAIN -> Identifiers.dns1123Subdomain(value);
            case DNS1123_LABEL -> Identifiers.dns1123Label(value);
            case DNS1035_LABEL -> Identifiers.dns1035Label(value);
            case PATH_SEGMENT -> Identifiers.pathSegment(name, prefix);
        };
    }

    private static String maskTrailingDash(String name) {
        return name.length() > 1 && name.endsWith("-") ? name.substring(0, name.length() - 2) + "a" : name;
    }
}

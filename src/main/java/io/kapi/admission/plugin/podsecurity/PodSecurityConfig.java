package io.kapi.admission.plugin.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.util.HashSet;
import java.util.Set;

/**
 * The plugin's {@code PodSecurityConfiguration} (pod-security.admission.config.k8s.io/v1): the policy of
 * namespaces without labels, and the users, runtime classes and namespaces exempt from it.
 */
public record PodSecurityConfig(NamespacePolicy defaults, Set<String> usernames, Set<String> runtimeClasses,
                                Set<String> namespaces) {

    public static final PodSecurityConfig DEFAULT = new PodSecurityConfig(NamespacePolicy.PRIVILEGED, Set.of(),
            Set.of(), Set.of());

    /**
     * @param configuration the plugin's configuration object, or null for the defaults
     * @throws IllegalArgumentException for defaults that do not parse (kube-apiserver does not start then)
     */
    public static PodSecurityConfig parse(JsonNode configuration) {
        if (configuration == null || configuration.isNull()) {
            return DEFAULT;
        }
        ObjectNode labels = Json.NODES.objectNode();
        configuration.path("defaults").properties().forEach(e -> labels.set(NamespacePolicy.PREFIX + e.getKey(),
                e.getValue()));
        NamespacePolicy.Parsed parsed = NamespacePolicy.parse(labels, NamespacePolicy.PRIVILEGED);
        if (!parsed.errors().isEmpty()) {
            throw new IllegalArgumentException("PodSecurity: invalid defaults: " + parsed.errors().stream()
                    .map(e -> e.toString().replace("metadata.labels[" + NamespacePolicy.PREFIX, "defaults[")).toList());
        }
        JsonNode exemptions = configuration.path("exemptions");
        return new PodSecurityConfig(parsed.policy(), strings(exemptions.path("usernames")),
                strings(exemptions.path("runtimeClasses")), strings(exemptions.path("namespaces")));
    }

    private static Set<String> strings(JsonNode array) {
        Set<String> set = new HashSet<>();
        array.forEach(n -> set.add(n.asText()));
        return Set.copyOf(set);
    }

    public boolean exemptNamespace(String namespace) {
        return !namespace.isEmpty() && namespaces.contains(namespace);
    }

    public boolean exemptUser(String user) {
        return !user.isEmpty() && usernames.contains(user);
    }

    public boolean exemptRuntimeClass(JsonNode spec) {
        String rc = spec.path("runtimeClassName").asText("");
        return !rc.isEmpty() && runtimeClasses.contains(rc);
    }
}

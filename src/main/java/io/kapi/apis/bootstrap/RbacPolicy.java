package io.kapi.apis.bootstrap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.authz.PolicyRule;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * kube-apiserver's bootstrap RBAC policy as API objects (rbac.authorization.k8s.io/v1), read from
 * the data files {@code apis/bootstrap/cluster-roles.yaml} and {@code bindings-and-roles.yaml}.
 * Every object carries the label {@code kubernetes.io/bootstrapping: rbac-defaults} and the
 * annotation {@code rbac.authorization.kubernetes.io/autoupdate: "true"}.
 */
public record RbacPolicy(List<ObjectNode> clusterRoles, List<ObjectNode> clusterRoleBindings,
                         List<ObjectNode> roles, List<ObjectNode> roleBindings) {

    public static final String API_VERSION = "rbac.authorization.k8s.io/v1";
    public static final String BOOTSTRAPPING_LABEL = "kubernetes.io/bootstrapping";
    public static final String AUTOUPDATE_ANNOTATION = "rbac.authorization.kubernetes.io/autoupdate";
    public static final String AGGREGATE_TO = "rbac.authorization.k8s.io/aggregate-to-";
    private static final String CONTROLLER_PREFIX = "system:controller:";

    /** The policy of kube-apiserver 1.34 (default feature gates). */
    public static RbacPolicy load() {
        JsonNode roles = read("cluster-roles.yaml");
        JsonNode rest = read("bindings-and-roles.yaml");
        List<ObjectNode> clusterRoles = new ArrayList<>();
        List<ObjectNode> clusterRoleBindings = new ArrayList<>();
        for (JsonNode r : roles.path("clusterRoles")) {
            clusterRoles.add(role("ClusterRole", null, r));
        }
        for (JsonNode b : rest.path("clusterRoleBindings")) {
            clusterRoleBindings.add(binding("ClusterRoleBinding", null, b.path("name").asText(), "ClusterRole",
                    b.path("role").asText(), b.path("subjects")));
        }
        for (JsonNode r : roles.path("controllerRoles")) {
            String name = r.path("name").asText();
            clusterRoles.add(role("ClusterRole", null, r));
            ArrayNode subject = Json.MAPPER.createArrayNode()
                    .add("ServiceAccount:kube-system:" + name.substring(CONTROLLER_PREFIX.length()));
            clusterRoleBindings.add(binding("ClusterRoleBinding", null, name, "ClusterRole", name, subject));
        }
        List<ObjectNode> namespaced = new ArrayList<>();
        for (JsonNode r : rest.path("roles")) {
            namespaced.add(role("Role", r.path("namespace").asText(), r));
        }
        List<ObjectNode> namespacedBindings = new ArrayList<>();
        for (JsonNode b : rest.path("roleBindings")) {
            namespacedBindings.add(binding("RoleBinding", b.path("namespace").asText(), b.path("name").asText(),
                    "Role", b.path("role").asText(), b.path("subjects")));
        }
        return new RbacPolicy(List.copyOf(clusterRoles), List.copyOf(clusterRoleBindings),
                List.copyOf(namespaced), List.copyOf(namespacedBindings));
    }

    /** kube's {@code bootstrappolicy.NodeRules()}: the rules of the bootstrap {@code system:node} role. */
    public List<PolicyRule> nodeRules() {
        List<PolicyRule> rules = new ArrayList<>();
        for (JsonNode role : clusterRoles) {
            if (role.path("metadata").path("name").asText().equals("system:node")) {
                role.path("rules").forEach(r -> rules.add(PolicyRule.of(r)));
            }
        }
        if (rules.isEmpty()) {
            throw new IllegalStateException("the bootstrap policy has no system:node role");
        }
        return rules;
    }

    private static ObjectNode role(String kind, String namespace, JsonNode data) {
        ObjectNode role = object(kind, namespace, data.path("name").asText());
        ObjectNode labels = (ObjectNode) role.path("metadata").path("labels");
        for (JsonNode to : data.path("aggregateTo")) {
            labels.put(AGGREGATE_TO + to.asText(), "true");
        }
        if (data.has("aggregationRule")) {
            ArrayNode selectors = role.putObject("aggregationRule").putArray("clusterRoleSelectors");
            for (JsonNode from : data.path("aggregationRule")) {
                selectors.addObject().putObject("matchLabels").put(AGGREGATE_TO + from.asText(), "true");
            }
        }
        ArrayNode rules = role.putArray("rules");
        for (JsonNode r : data.path("rules")) {
            rules.add(rule(r));
        }
        return role;
    }

    /** Expands the data file's shorthand into a PolicyRule, fields in kube's order. */
    private static ObjectNode rule(JsonNode shorthand) {
        ObjectNode rule = Json.object();
        copy(shorthand, "v", rule, "verbs");
        copy(shorthand, "g", rule, "apiGroups");
        copy(shorthand, "r", rule, "resources");
        copy(shorthand, "n", rule, "resourceNames");
        copy(shorthand, "u", rule, "nonResourceURLs");
        return rule;
    }

    private static void copy(JsonNode from, String shortName, ObjectNode to, String field) {
        if (from.has(shortName)) {
            ArrayNode values = to.putArray(field);
            from.path(shortName).forEach(v -> values.add(v.asText()));
        }
    }

    private static ObjectNode binding(String kind, String namespace, String name, String roleKind, String roleName,
                                      JsonNode subjects) {
        ObjectNode binding = object(kind, namespace, name);
        ObjectNode roleRef = binding.putObject("roleRef");
        roleRef.put("apiGroup", "rbac.authorization.k8s.io");
        roleRef.put("kind", roleKind);
        roleRef.put("name", roleName);
        ArrayNode list = binding.putArray("subjects");
        for (JsonNode s : subjects) {
            list.add(subject(s.asText()));
        }
        return binding;
    }

    /** "Group:name", "User:name" or "ServiceAccount:namespace:name" as an rbac/v1 Subject. */
    private static ObjectNode subject(String spec) {
        int colon = spec.indexOf(':');
        String kind = spec.substring(0, colon);
        String rest = spec.substring(colon + 1);
        ObjectNode subject = Json.object();
        if (kind.equals("ServiceAccount")) {
            int split = rest.indexOf(':');
            subject.put("kind", kind);
            subject.put("name", rest.substring(split + 1));
            subject.put("namespace", rest.substring(0, split));
        } else {
            subject.put("apiGroup", "rbac.authorization.k8s.io");
            subject.put("kind", kind);
            subject.put("name", rest);
        }
        return subject;
    }

    private static ObjectNode object(String kind, String namespace, String name) {
        ObjectNode object = Json.object();
        object.put("apiVersion", API_VERSION);
        object.put("kind", kind);
        ObjectNode meta = object.putObject("metadata");
        meta.put("name", name);
        if (namespace != null) {
            meta.put("namespace", namespace);
        }
        meta.putObject("labels").put(BOOTSTRAPPING_LABEL, "rbac-defaults");
        meta.putObject("annotations").put(AUTOUPDATE_ANNOTATION, "true");
        return object;
    }

    /**
     * The data file {@code file}, parsed once per JVM (in-process test servers start many times in one):
     * each call gets its own copy, free to change.
     */
    static JsonNode read(String file) {
        return PARSED.computeIfAbsent(file, RbacPolicy::parse).deepCopy();
    }

    private static final java.util.Map<String, JsonNode> PARSED = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * The YAML file as the build wrote it in JSON ({@code io.kapi.build.BuildResources}): parsing the JSON
     * takes a fresh JVM a tenth of the time, without loading the YAML parser. Classes that did not go
     * through the build (an IDE's) read the YAML.
     */
    private static JsonNode parse(String file) {
        String path = "/apis/bootstrap/" + file;
        String jsonPath = precompiled(path);
        try (InputStream json = RbacPolicy.class.getResourceAsStream(jsonPath)) {
            if (json != null) {
                return Json.MAPPER.readTree(json);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + jsonPath, e);
        }
        try (InputStream in = RbacPolicy.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + path);
            }
            return Json.yaml().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
    }

    /** Where the build writes the JSON form of the data file at {@code yamlPath}. */
    public static String precompiled(String yamlPath) {
        return yamlPath.replaceFirst("\\.yaml$", ".json");
    }
}

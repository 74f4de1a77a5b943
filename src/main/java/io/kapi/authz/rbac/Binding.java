package io.kapi.authz.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.user.UserInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * A RoleBinding or ClusterRoleBinding as RBAC reads it: the role it grants and to whom.
 *
 * @param namespace "" for a ClusterRoleBinding
 * @param roleKind {@code Role} or {@code ClusterRole}
 */
public record Binding(String namespace, String name, String roleKind, String roleName, List<Subject> subjects) {

    /** One subject: kind {@code User}, {@code Group} or {@code ServiceAccount}. */
    public record Subject(String kind, String name, String namespace) {
    }

    public Binding {
        subjects = List.copyOf(subjects);
    }

    static Binding of(JsonNode object) {
        List<Subject> subjects = new ArrayList<>();
        object.path("subjects").forEach(s -> subjects.add(new Subject(s.path("kind").asText(), s.path("name").asText(),
                s.path("namespace").asText(""))));
        JsonNode meta = object.path("metadata");
        return new Binding(meta.path("namespace").asText(""), meta.path("name").asText(),
                object.path("roleRef").path("kind").asText(), object.path("roleRef").path("name").asText(), subjects);
    }

    /** Whether any subject is {@code user}, as kube's {@code appliesTo}. */
    public boolean appliesTo(UserInfo user) {
        for (Subject s : subjects) {
            if (appliesTo(s, user)) {
                return true;
            }
        }
        return false;
    }

    private boolean appliesTo(Subject s, UserInfo user) {
        return switch (s.kind()) {
            case "User" -> s.name().equals(user.name());
            case "Group" -> user.groups().contains(s.name());
            case "ServiceAccount" -> {
                String ns = s.namespace().isEmpty() ? namespace : s.namespace();
                yield !ns.isEmpty() && user.name().equals("system:serviceaccount:" + ns + ":" + s.name());
            }
            default -> false;
        };
    }

    /** How kube names a binding in a reason: {@code RoleBinding "x" of Role "y" to User "z"}. */
    String describe() {
        String kind = namespace.isEmpty() ? "ClusterRoleBinding" : "RoleBinding";
        String where = namespace.isEmpty() ? "" : "/" + namespace;
        return "%s \"%s%s\" of %s \"%s\"".formatted(kind, name, where, roleKind, roleName);
    }
}

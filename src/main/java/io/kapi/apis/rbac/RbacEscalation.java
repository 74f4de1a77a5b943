package io.kapi.apis.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.Operation;
import io.kapi.admission.ValidatingPlugin;
import io.kapi.authz.AuthorizationAttributes;
import io.kapi.authz.Authorizer;
import io.kapi.authz.Decision;
import io.kapi.authz.PolicyRule;
import io.kapi.authz.RuleCoverage;
import io.kapi.authz.rbac.RbacAuthorizer;
import io.kapi.machinery.ApiException;
import io.kapi.request.Verb;
import io.kapi.user.SystemUsers;
import io.kapi.user.UserInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * RBAC's escalation prevention, as kube's policy-based storage of roles and bindings: creating or
 * updating a Role or ClusterRole needs every rule it grants to be held by the writer (in the role's
 * namespace; cluster-wide for a ClusterRole) unless the writer may {@code escalate} it; a RoleBinding or
 * ClusterRoleBinding needs the rules of the role it refers to held, unless the writer may {@code bind}
 * that role. Members of {@code system:masters} are never checked. Runs as the first validation of those
 * writes (so patches and applies are checked as they will be stored); inactive without RBAC.
 */
public final class RbacEscalation implements ValidatingPlugin {

    private static final String GROUP = "rbac.authorization.k8s.io";

    private final Supplier<Authorizer> authorizer;
    private final Supplier<RbacAuthorizer> rbac;

    /** @param authorizer the server's chain; @param rbac its RBAC authorizer, null when RBAC is not enabled */
    public RbacEscalation(Supplier<Authorizer> authorizer, Supplier<RbacAuthorizer> rbac) {
        this.authorizer = authorizer;
        this.rbac = rbac;
    }

    @Override
    public String name() {
        return "kapi/rbac-escalation";
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.CREATE || operation == Operation.UPDATE;
    }

    @Override
    public void validate(Attributes a) {
        RbacAuthorizer r = rbac.get();
        UserInfo user = a.user();
        if (r == null || user == null || user.groups().contains(SystemUsers.MASTERS)
                || !a.target().subresource().isEmpty() || !a.target().resource().group().equals(GROUP)) {
            return;
        }
        String resource = a.target().resource().resource();
        String namespace = a.target().namespace() == null ? "" : a.target().namespace();
        switch (resource) {
            case "roles", "clusterroles" -> {
                if (!allowed(user, Verb.ESCALATE, resource, namespace, a.target().name())) {
                    List<PolicyRule> wanted = new ArrayList<>();
                    a.object().path("rules").forEach(rule -> wanted.add(PolicyRule.of(rule)));
                    check(a, user, r.rulesFor(user, namespace).rules(), wanted);
                }
            }
            case "rolebindings", "clusterrolebindings" -> {
                JsonNode ref = a.object().path("roleRef");
                String kind = ref.path("kind").asText();
                String roleResource = kind.equals("Role") ? "roles" : "clusterroles";
                String roleNamespace = kind.equals("Role") ? namespace : "";
                if (!allowed(user, Verb.BIND, roleResource, namespace, ref.path("name").asText())) {
                    List<PolicyRule> wanted = r.roleRules(kind, roleNamespace, ref.path("name").asText());
                    if (wanted == null) {
                        throw ApiException.forbidden(a.target().resource(), a.target().name(), "%s.%s \"%s\" not found"
                                .formatted(roleResource, GROUP, ref.path("name").asText()), List.of());
                    }
                    check(a, user, r.rulesFor(user, namespace).rules(), wanted);
                }
            }
            default -> {
            }
        }
    }

    private boolean allowed(UserInfo user, Verb verb, String resource, String namespace, String name) {
        return authorizer.get().authorize(new AuthorizationAttributes(user, verb, true, GROUP, "v1", resource, "",
                namespace, name, "")) instanceof Decision.Allow;
    }

    private static void check(Attributes a, UserInfo user, List<PolicyRule> held, List<PolicyRule> wanted) {
        List<PolicyRule> missing = RuleCoverage.uncovered(held, wanted);
        if (missing.isEmpty()) {
            return;
        }
        List<String> lines = missing.stream().map(RuleCoverage::describe).toList();
        List<String> groups = user.groups().stream().map(g -> '"' + g + '"').toList();
        throw ApiException.forbidden(a.target().resource(), a.target().name(),
                "user \"%s\" (groups=[%s]) is attempting to grant RBAC permissions not currently held:\n%s"
                        .formatted(user.name(), String.join(" ", groups), String.join("\n", lines)), List.of());
    }
}

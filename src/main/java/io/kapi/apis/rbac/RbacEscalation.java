package io.kapi.apis.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import io.kapi.machinery.GroupVersionResource;
import io.kapi.request.RequestInfo;
import io.kapi.request.Verb;
import io.kapi.user.SystemUsers;
import io.kapi.user.UserInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * RBAC's escalation prevention, as kube's policy-based storage of roles and bindings
 * ({@code pkg/registry/rbac/*}/policybased): members of {@code system:masters} are never checked, nor an
 * update that changes only what the garbage collector changes (owner references, finalizers, deletion).
 * <ul>
 *   <li>A Role or ClusterRole may be written by who may {@code escalate} it (asked as kube asks: the
 *       request's own name, so none for a create by POST); anyone else must hold every rule it grants (in
 *       the role's namespace; cluster-wide for a ClusterRole), and a ClusterRole that has, or had, an
 *       {@code aggregationRule} needs every permission ({@code *} on {@code *.*} and on every URL): an
 *       aggregation gathers whatever roles its selectors match, the admin roles' rules among them.</li>
 *   <li>A RoleBinding or ClusterRoleBinding may be written by who may {@code bind} its role (in the
 *       binding's namespace); anyone else must hold the role's rules there, and a role that does not exist
 *       is 404, as kube's rule resolver answers.</li>
 * </ul>
 * Runs as the first validation of those writes, so creates, updates, every kind of patch and server-side
 * apply, dry run or not, are checked as they will be stored; inactive without RBAC.
 */
public final class RbacEscalation implements ValidatingPlugin {

    private static final String GROUP = "rbac.authorization.k8s.io";
    /** kube's {@code fullAuthority}: what one must hold to set an aggregationRule. */
    private static final List<PolicyRule> FULL_AUTHORITY = List.of(
            new PolicyRule(List.of("*"), List.of("*"), List.of("*"), List.of(), List.of()),
            new PolicyRule(List.of("*"), List.of(), List.of(), List.of(), List.of("*")));
    /** What the garbage collector changes: an update changing nothing else is not checked. */
    private static final List<String> GC_FIELDS = List.of("ownerReferences", "finalizers", "deletionTimestamp",
            "deletionGracePeriodSeconds", "selfLink", "resourceVersion", "generation", "managedFields");

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
                || !a.target().subresource().isEmpty() || !a.target().resource().group().equals(GROUP)
                || onlyGarbageCollectorFields(a)) {
            return;
        }
        String resource = a.target().resource().resource();
        String namespace = a.target().namespace() == null ? "" : a.target().namespace();
        switch (resource) {
            case "roles", "clusterroles" -> role(a, r, user, resource, namespace);
            case "rolebindings", "clusterrolebindings" -> binding(a, r, user, namespace);
            default -> {
            }
        }
    }

    private void role(Attributes a, RbacAuthorizer r, UserInfo user, String resource, String namespace) {
        if (escalationAuthorized(a, user, resource)) {
            return;
        }
        List<PolicyRule> wanted = new ArrayList<>();
        a.object().path("rules").forEach(rule -> wanted.add(PolicyRule.of(rule)));
        check(a, user, r.rulesFor(user, namespace).rules(), wanted);
        if (resource.equals("clusterroles") && (aggregates(a.object()) || aggregates(a.oldObject()))
                && !RuleCoverage.uncovered(r.rulesFor(user, "").rules(), FULL_AUTHORITY).isEmpty()) {
            throw a.forbidden("must have cluster-admin privileges to use the aggregationRule");
        }
    }

    private void binding(Attributes a, RbacAuthorizer r, UserInfo user, String namespace) {
        JsonNode ref = a.object().path("roleRef");
        String kind = ref.path("kind").asText();
        String name = ref.path("name").asText();
        String roleResource = kind.equals("Role") ? "roles" : "clusterroles";
        if (allowed(user, Verb.BIND, roleResource, namespace, name)) {
            return;
        }
        List<PolicyRule> wanted = r.roleRules(kind, kind.equals("Role") ? namespace : "", name);
        if (wanted == null) {
            throw ApiException.notFound(new GroupVersionResource(GROUP, "v1", roleResource), name);
        }
        check(a, user, r.rulesFor(user, namespace).rules(), wanted);
    }

    /**
     * kube's {@code RoleEscalationAuthorized}: the {@code escalate} verb on the role resource, asked with
     * the request's namespace and name (none for a create by POST, so a grant limited to names never
     * covers one); a write without a request (the server's own) is not.
     */
    private boolean escalationAuthorized(Attributes a, UserInfo user, String resource) {
        if (a.request() == null) {
            return false;
        }
        RequestInfo info = a.request().info();
        return info.resourceRequest() && allowed(user, Verb.ESCALATE, resource, info.namespace(), info.name());
    }

    /** kube's {@code hasAggregationRule}: an aggregationRule with at least one selector. */
    private static boolean aggregates(ObjectNode role) {
        return role != null && !role.path("aggregationRule").path("clusterRoleSelectors").isEmpty();
    }

    /**
     * kube's {@code IsOnlyMutatingGCFields}: an update whose object differs from the stored one only in
     * owner references, finalizers and deletion (and what the server maintains: resource version,
     * generation, managed fields).
     */
    private static boolean onlyGarbageCollectorFields(Attributes a) {
        if (a.operation() != Operation.UPDATE || a.oldObject() == null) {
            return false;
        }
        return withoutGarbageCollectorFields(a.object()).equals(withoutGarbageCollectorFields(a.oldObject()));
    }

    private static ObjectNode withoutGarbageCollectorFields(ObjectNode object) {
        ObjectNode copy = object.deepCopy();
        if (copy.path("metadata") instanceof ObjectNode metadata) {
            metadata.remove(GC_FIELDS);
        }
        return copy;
    }

    private boolean allowed(UserInfo user, Verb verb, String resource, String namespace, String name) {
        return authorizer.get().authorize(new AuthorizationAttributes(user, verb, true, GROUP, "v1", resource, "",
                namespace == null ? "" : namespace, name == null ? "" : name, "")) instanceof Decision.Allow;
    }

    private static void check(Attributes a, UserInfo user, List<PolicyRule> held, List<PolicyRule> wanted) {
        List<PolicyRule> missing = RuleCoverage.uncovered(held, wanted);
        if (missing.isEmpty()) {
            return;
        }
        List<String> lines = missing.stream().map(RuleCoverage::describe).distinct().sorted().toList(); // a Go string set
        List<String> groups = user.groups().stream().map(g -> '"' + g + '"').toList();
        throw a.forbidden("user \"%s\" (groups=[%s]) is attempting to grant RBAC permissions not currently held:\n%s"
                .formatted(user.name(), String.join(" ", groups), String.join("\n", lines)));
    }
}

package io.kapi.authz.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.admission.ObjectLookup;
import io.kapi.authz.AuthorizationAttributes;
import io.kapi.authz.Authorizer;
import io.kapi.authz.Decision;
import io.kapi.authz.PolicyRule;
import io.kapi.authz.ResourceMirror;
import io.kapi.authz.RuleResolver;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.user.UserInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The RBAC authorizer (kube's {@code rbac.RBACAuthorizer}): a request is allowed when a rule of a role
 * bound to its user allows it — ClusterRoles through ClusterRoleBindings anywhere, Roles and ClusterRoles
 * through RoleBindings in the request's namespace — and otherwise has no opinion. Roles and bindings are
 * read from in-memory mirrors of the server's shared informers ({@link ResourceMirror}), never from
 * storage per request.
 */
public final class RbacAuthorizer implements Authorizer, RuleResolver, AutoCloseable {

    private static final String GROUP = "rbac.authorization.k8s.io";

    private final ResourceMirror<List<PolicyRule>> clusterRoles;
    private final ResourceMirror<List<PolicyRule>> roles;
    private final ResourceMirror<Binding> clusterRoleBindings;
    private final ResourceMirror<Binding> roleBindings;
    private final ObjectLookup storage;

    private RbacAuthorizer(SharedInformers informers, ObjectLookup storage) {
        this.storage = storage;
        this.clusterRoles = new ResourceMirror<>(informers.informer(rbac("clusterroles")), RbacAuthorizer::rules);
        this.roles = new ResourceMirror<>(informers.informer(rbac("roles")), RbacAuthorizer::rules);
        this.clusterRoleBindings = new ResourceMirror<>(informers.informer(rbac("clusterrolebindings")), Binding::of);
        this.roleBindings = new ResourceMirror<>(informers.informer(rbac("rolebindings")), Binding::of);
    }

    /**
     * An authorizer over the RBAC objects, read from their shared informers; roles a binding names are
     * read from {@code storage} (see {@link #roleRules}).
     */
    public static RbacAuthorizer start(SharedInformers informers, ObjectLookup storage) {
        return new RbacAuthorizer(informers, storage);
    }

    private static GroupVersionResource rbac(String resource) {
        return new GroupVersionResource(GROUP, "v1", resource);
    }

    private static List<PolicyRule> rules(JsonNode role) {
        List<PolicyRule> rules = new ArrayList<>();
        role.path("rules").forEach(r -> rules.add(PolicyRule.of(r)));
        return List.copyOf(rules);
    }

    /** Waits until every mirror has listed once; false when {@code timeout} passed first. */
    public boolean awaitSynced(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        for (ResourceMirror<?> m : List.of(clusterRoles, roles, clusterRoleBindings, roleBindings)) {
            if (!m.awaitSynced(Duration.ofNanos(Math.max(0, end - System.nanoTime())))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public Decision authorize(AuthorizationAttributes a) {
        if (a.user() == null) {
            return Decision.noOpinion();
        }
        String[] allowedBy = new String[1];
        visit(a.user(), a.resourceRequest() ? a.namespace() : "", (binding, rule) -> {
            if (rule.allows(a)) {
                allowedBy[0] = binding.describe();
                return true;
            }
            return false;
        });
        return allowedBy[0] != null ? new Decision.Allow("RBAC: allowed by " + allowedBy[0])
                : Decision.noOpinion();
    }

    @Override
    public Rules rulesFor(UserInfo user, String namespace) {
        List<PolicyRule> rules = new ArrayList<>();
        visit(user, namespace, (binding, rule) -> {
            rules.add(rule);
            return false;
        });
        return new Rules(rules, false);
    }

    /**
     * The rules of role {@code kind} ({@code Role} or {@code ClusterRole}) {@code namespace/name} as stored
     * now, or null when absent: read from storage, not the mirrors, as kube's binding storage does, so a
     * role created just before the binding that refers to it is found.
     */
    public List<PolicyRule> roleRules(String kind, String namespace, String name) {
        ResourceMirror<List<PolicyRule>> mirror = kind.equals("ClusterRole") ? clusterRoles
                : kind.equals("Role") ? roles : null;
        if (mirror == null) {
            return null;
        }
        String ns = kind.equals("Role") ? namespace : "";
        return storage.get(rbac(kind.equals("Role") ? "roles" : "clusterroles"), ns, name).map(RbacAuthorizer::rules)
                .orElse(null);
    }

    private interface RuleVisitor {
        /** @return true to stop */
        boolean visit(Binding binding, PolicyRule rule);
    }

    /** Visits the rules that apply to {@code user} in {@code namespace} ("" : cluster-wide only), as kube's VisitRulesFor. */
    private void visit(UserInfo user, String namespace, RuleVisitor visitor) {
        for (Binding b : clusterRoleBindings.in("").values()) {
            if (b.roleKind().equals("ClusterRole") && b.appliesTo(user)
                    && visitRules(b, clusterRoles.get("", b.roleName()), visitor)) {
                return;
            }
        }
        if (namespace.isEmpty()) {
            return;
        }
        for (Binding b : roleBindings.in(namespace).values()) {
            if (!b.appliesTo(user)) {
                continue;
            }
            List<PolicyRule> rules = b.roleKind().equals("ClusterRole") ? clusterRoles.get("", b.roleName())
                    : b.roleKind().equals("Role") ? roles.get(namespace, b.roleName()) : null;
            if (visitRules(b, rules, visitor)) {
                return;
            }
        }
    }

    private static boolean visitRules(Binding b, List<PolicyRule> rules, RuleVisitor visitor) {
        if (rules == null) {
            return false;
        }
        for (PolicyRule r : rules) {
            if (visitor.visit(b, r)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        List.of(clusterRoles, roles, clusterRoleBindings, roleBindings).forEach(ResourceMirror::close);
    }
}

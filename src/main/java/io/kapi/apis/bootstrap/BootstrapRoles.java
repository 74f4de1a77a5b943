package io.kapi.apis.bootstrap;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.health.PostStartHook;
import io.kapi.machinery.ObjectMeta;
import io.kapi.registry.DeleteOptions;
import io.kapi.client.LocalClient;
import io.kapi.client.ResourceClient;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The post-start hook {@code rbac/bootstrap-roles}: creates kube-apiserver's bootstrap RBAC policy
 * ({@link RbacPolicy}) through the stores, and reconciles objects that already exist as
 * kube-apiserver does on every start ({@link RbacReconciliation}). Safe to run again and beside other
 * replicas. When an {@link ClusterRoleAggregation} is given, aggregated roles (admin, edit, view)
 * get their rules before the hook reports done.
 */
final class BootstrapRoles implements PostStartHook {

    private static final System.Logger LOG = System.getLogger(BootstrapRoles.class.getName());

    private final RbacPolicy policy;
    private final ResourceClient clusterRoles;
    private final ResourceClient clusterRoleBindings;
    private final ResourceClient roles;
    private final ResourceClient roleBindings;
    private final Optional<ClusterRoleAggregation> aggregation;

    BootstrapRoles(RbacPolicy policy, LocalClient client, Optional<ClusterRoleAggregation> aggregation) {
        String group = "rbac.authorization.k8s.io";
        this.policy = policy;
        this.clusterRoles = client.resource(group, "v1", "clusterroles");
        this.clusterRoleBindings = client.resource(group, "v1", "clusterrolebindings");
        this.roles = client.resource(group, "v1", "roles");
        this.roleBindings = client.resource(group, "v1", "rolebindings");
        this.aggregation = aggregation;
    }

    @Override
    public String name() {
        return "rbac/bootstrap-roles";
    }

    /**
     * Reads what exists with one list per kind (not a read per object: a fresh store would answer
     * each with NotFound), then creates or reconciles each object; an object the list shows already
     * reconciled costs no request. A listed object may be stale by the time it is written: a create
     * that finds it exists reconciles instead, and every update reads the object again.
     */
    @Override
    public void run() {
        Map<String, ObjectNode> listed = Stores.listed(clusterRoles);
        Map<String, ObjectNode> listedBindings = Stores.listed(clusterRoleBindings);
        Map<String, ObjectNode> listedRoles = Stores.listed(roles);
        Map<String, ObjectNode> listedRoleBindings = Stores.listed(roleBindings);
        // every object is independent of the others (a binding may name a role that does not exist yet)
        List<Runnable> writes = new ArrayList<>();
        policy.clusterRoles().forEach(r -> writes.add(() -> ensureRole(clusterRoles, r, listed)));
        policy.clusterRoleBindings().forEach(b -> writes.add(() -> ensureBinding(clusterRoleBindings, b, listedBindings)));
        policy.roles().forEach(r -> writes.add(() -> ensureRole(roles, r, listedRoles)));
        policy.roleBindings().forEach(b -> writes.add(() -> ensureBinding(roleBindings, b, listedRoleBindings)));
        Concurrently.run("rbac-bootstrap", writes);
        aggregation.ifPresent(ClusterRoleAggregation::reconcileAll);
    }

    private static void ensureRole(ResourceClient store, ObjectNode expected, Map<String, ObjectNode> listed) {
        ObjectMeta meta = ObjectMeta.of(expected);
        ObjectNode existing = listed.get(Stores.key(meta));
        if (Stores.ensure(store, expected, existing, current -> RbacReconciliation.role(current, expected))) {
            LOG.log(existing == null ? Level.DEBUG : Level.INFO, "{0} {1} {2}",
                    existing == null ? "created" : "reconciled", expected.path("kind").asText(), meta.name());
        }
    }

    private static void ensureBinding(ResourceClient store, ObjectNode expected, Map<String, ObjectNode> listed) {
        ObjectMeta meta = ObjectMeta.of(expected);
        Optional<ObjectNode> existing = Optional.ofNullable(listed.get(Stores.key(meta)));
        if (existing.isEmpty()) {
            if (Stores.createIfMissing(store, expected)) {
                return;
            }
            existing = store.find(meta.namespace(), meta.name());
        }
        if (existing.isPresent() && RbacReconciliation.roleRefDiffers(existing.get(), expected)) {
            ObjectNode old = existing.get();
            ObjectNode replacement = RbacReconciliation.binding(old, expected);
            replacement.set("roleRef", expected.path("roleRef").deepCopy());
            ObjectMeta fresh = ObjectMeta.of(replacement);
            fresh.node().remove(List.of("uid", "resourceVersion", "creationTimestamp", "managedFields"));
            store.delete(meta.namespace(), meta.name(),
                    new DeleteOptions(ObjectMeta.of(old).uid(), ObjectMeta.of(old).resourceVersion(), false, null, null));
            Stores.createIfMissing(store, replacement);
            LOG.log(Level.INFO, "re-created {0} {1} with roleRef {2}", expected.path("kind").asText(), meta.name(),
                    expected.path("roleRef").path("name").asText());
            return;
        }
        if (Stores.ensure(store, expected, existing.orElse(null),
                current -> RbacReconciliation.binding(current, expected))) {
            LOG.log(Level.INFO, "reconciled {0} {1}", expected.path("kind").asText(), meta.name());
        }
    }
}

package io.kapi.authz.node;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.authz.AuthorizationAttributes;
import io.kapi.authz.Authorizer;
import io.kapi.authz.Decision;
import io.kapi.authz.PolicyRule;
import io.kapi.authz.ResourceMirror;
import io.kapi.authz.RuleResolver;
import io.kapi.authz.node.NodeGraph.Kind;
import io.kapi.informers.Informer;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.user.UserInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * kube's Node authorizer ({@code --authorization-mode=Node}): decides for kubelets only
 * ({@link NodeIdentity}) and has no opinion about everyone else. Secrets, configmaps, claims,
 * volumes, resource claims, volume attachments and service account tokens are allowed only when the
 * {@link NodeGraph} relates them to the node through the pods bound to it; pods and nodes are read
 * by name or with a {@code spec.nodeName} selector; leases and CSINodes only under the node's own
 * name; everything else by the static rules of the bootstrap {@code system:node} role. Refusals have
 * no opinion with kube's reason, so RBAC can still allow, and the 403 shows the reason. The graph
 * is kept current by watches of pods, persistent volumes, volume attachments and resource slices.
 */
public final class NodeAuthorizer implements Authorizer, RuleResolver, AutoCloseable {

    private final NodeGraph graph;
    private final List<PolicyRule> nodeRules;
    private final List<ResourceMirror<?>> mirrors;

    NodeAuthorizer(NodeGraph graph, List<PolicyRule> nodeRules, List<ResourceMirror<?>> mirrors) {
        this.graph = graph;
        this.nodeRules = List.copyOf(nodeRules);
        this.mirrors = List.copyOf(mirrors);
    }

    /** An authorizer whose graph follows the objects of the server's shared informers. */
    public static NodeAuthorizer start(SharedInformers informers, List<PolicyRule> nodeRules) {
        NodeGraph graph = new NodeGraph();
        List<ResourceMirror<?>> mirrors = List.of(
                new ResourceMirror<>(informer(informers, "", "pods"), PodReferences::of, graph::pod),
                new ResourceMirror<>(informer(informers, "", "persistentvolumes"),
                        VolumeReferences::of, (ns, name, before, after) -> graph.volume(name, after)),
                new ResourceMirror<>(informer(informers, "storage.k8s.io", "volumeattachments"),
                        o -> o.path("spec").path("nodeName").asText(""),
                        (ns, name, before, after) -> graph.attachment(name, after)),
                new ResourceMirror<>(informer(informers, "resource.k8s.io", "resourceslices"),
                        o -> o.path("spec").path("nodeName").asText(""),
                        (ns, name, before, after) -> graph.slice(name, after)));
        return new NodeAuthorizer(graph, List.copyOf(nodeRules), mirrors);
    }

    private static Informer informer(SharedInformers informers, String group, String resource) {
        return informers.informer(new GroupVersionResource(group, "v1", resource));
    }

    /** Waits until every watch has listed once; false when {@code timeout} passed first. */
    public boolean awaitSynced(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        for (ResourceMirror<?> m : mirrors) {
            if (!m.awaitSynced(Duration.ofNanos(Math.max(0, end - System.nanoTime())))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public Decision authorize(AuthorizationAttributes a) {
        String node = NodeIdentity.nodeName(a.user());
        if (node == null) {
            return Decision.noOpinion();
        }
        if (node.isEmpty()) {
            return new Decision.NoOpinion("unknown node for user \"%s\"".formatted(a.user().name()));
        }
        if (a.resourceRequest()) {
            Decision special = NodeRules.decide(graph, node, a);
            if (special != null) {
                return special;
            }
        }
        for (PolicyRule rule : nodeRules) {
            if (rule.allows(a)) {
                return Decision.allow();
            }
        }
        return Decision.noOpinion();
    }

    /** Nodes' permissions are not enumerable (kube: "node authorizer does not support user rule resolution"). */
    @Override
    public Rules rulesFor(UserInfo user, String namespace) {
        return new Rules(List.of(), NodeIdentity.nodeName(user) != null);
    }

    boolean reaches(String node, Kind kind, String namespace, String name) {
        return graph.reaches(node, kind, namespace, name);
    }

    @Override
    public void close() {
        mirrors.forEach(ResourceMirror::close);
    }
}

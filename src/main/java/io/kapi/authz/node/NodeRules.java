package io.kapi.authz.node;

import io.kapi.authz.AuthorizationAttributes;
import io.kapi.authz.Decision;
import io.kapi.authz.node.NodeGraph.Kind;
import io.kapi.registry.FieldSelector;
import io.kapi.request.Verb;

/**
 * The Node authorizer's decisions for the resources it subdivides, with kube's reasons (1.34, the
 * {@code AuthorizeNodeWithSelectors} gate on as by default). A refusal is no opinion with a reason.
 */
final class NodeRules {

    static final String NODE_LEASE_NAMESPACE = "kube-node-lease";

    private NodeRules() {
    }

    /** The decision for {@code a}, or null when its resource is left to the static rules. */
    static Decision decide(NodeGraph graph, String node, AuthorizationAttributes a) {
        return switch (a.group() + "/" + a.resource()) {
            case "/secrets" -> readNamespaced(graph, node, Kind.SECRET, a);
            case "/configmaps" -> readNamespaced(graph, node, Kind.CONFIGMAP, a);
            case "/persistentvolumeclaims" -> a.subresource().equals("status")
                    ? statusUpdate(graph, node, Kind.PVC, a) : get(graph, node, Kind.PVC, a);
            case "/persistentvolumes" -> get(graph, node, Kind.PV, a);
            case "resource.k8s.io/resourceclaims" -> get(graph, node, Kind.RESOURCECLAIM, a);
            case "storage.k8s.io/volumeattachments" -> get(graph, node, Kind.VOLUMEATTACHMENT, a);
            case "/serviceaccounts" -> createToken(graph, node, a);
            case "coordination.k8s.io/leases" -> lease(node, a);
            case "storage.k8s.io/csinodes" -> csiNode(node, a);
            case "resource.k8s.io/resourceslices" -> resourceSlice(graph, node, a);
            case "/nodes" -> NodeObjects.node(node, a);
            case "/pods" -> NodeObjects.pod(graph, node, a);
            default -> null;
        };
    }

    static Decision refuse(String reason) {
        return new Decision.NoOpinion(reason);
    }

    private static Decision statusUpdate(NodeGraph graph, String node, Kind kind, AuthorizationAttributes a) {
        if (a.verb() != Verb.UPDATE && a.verb() != Verb.PATCH) {
            return refuse("can only get/update/patch this type");
        }
        return related(graph, node, kind, a);
    }

    static Decision get(NodeGraph graph, String node, Kind kind, AuthorizationAttributes a) {
        if (a.verb() != Verb.GET) {
            return refuse("can only get individual resources of this type");
        }
        if (!a.subresource().isEmpty()) {
            return refuse("cannot get subresource");
        }
        return related(graph, node, kind, a);
    }

    private static Decision readNamespaced(NodeGraph graph, String node, Kind kind, AuthorizationAttributes a) {
        if (a.verb() != Verb.GET && a.verb() != Verb.LIST && a.verb() != Verb.WATCH) {
            return refuse("can only read resources of this type");
        }
        if (!a.subresource().isEmpty()) {
            return refuse("cannot read subresource");
        }
        if (a.namespace().isEmpty()) {
            return refuse("can only read namespaced object of this type");
        }
        return related(graph, node, kind, a);
    }

    /** kube's {@code authorize}: a named object the graph relates to the node. */
    static Decision related(NodeGraph graph, String node, Kind kind, AuthorizationAttributes a) {
        if (a.name().isEmpty()) {
            return refuse("No Object name found");
        }
        return graph.reaches(node, kind, a.namespace(), a.name()) ? Decision.allow() : unrelated(node);
    }

    private static Decision unrelated(String node) {
        return refuse("no relationship found between node '%s' and this object".formatted(node));
    }

    private static Decision createToken(NodeGraph graph, String node, AuthorizationAttributes a) {
        if (a.verb() != Verb.CREATE || a.name().isEmpty()) {
            return refuse("can only create tokens for individual service accounts");
        }
        if (!a.subresource().equals("token")) {
            return refuse("can only create token subresource of serviceaccount");
        }
        return graph.reaches(node, Kind.SERVICEACCOUNT, a.namespace(), a.name()) ? Decision.allow()
                : unrelated(node);
    }

    private static boolean ownObjectVerb(Verb verb) {
        return verb == Verb.GET || verb == Verb.CREATE || verb == Verb.UPDATE || verb == Verb.PATCH
                || verb == Verb.DELETE;
    }

    private static Decision lease(String node, AuthorizationAttributes a) {
        if (!ownObjectVerb(a.verb())) {
            return refuse("can only get, create, update, patch, or delete a node lease");
        }
        if (!a.namespace().equals(NODE_LEASE_NAMESPACE)) {
            return refuse("can only access leases in the \"%s\" system namespace".formatted(NODE_LEASE_NAMESPACE));
        }
        if (a.verb() != Verb.CREATE && !a.name().equals(node)) {
            return refuse("can only access node lease with the same name as the requesting node");
        }
        return Decision.allow();
    }

    private static Decision csiNode(String node, AuthorizationAttributes a) {
        if (!ownObjectVerb(a.verb())) {
            return refuse("can only get, create, update, patch, or delete a CSINode");
        }
        if (!a.subresource().isEmpty()) {
            return refuse("cannot authorize CSINode subresources");
        }
        if (a.verb() != Verb.CREATE && !a.name().equals(node)) {
            return refuse("can only access CSINode with the same name as the requesting node");
        }
        return Decision.allow();
    }

    private static Decision resourceSlice(NodeGraph graph, String node, AuthorizationAttributes a) {
        if (!a.subresource().isEmpty()) {
            return refuse("cannot authorize ResourceSlice subresources");
        }
        return switch (a.verb()) {
            case CREATE -> Decision.allow();
            case GET, UPDATE, PATCH, DELETE -> related(graph, node, Kind.RESOURCESLICE, a);
            case WATCH, LIST, DELETECOLLECTION -> selects(a.fieldRequirements(), "spec.nodeName", node)
                    || selects(a.fieldRequirements(), "nodeName", node) ? Decision.allow()
                    : refuse("can only list/watch/deletecollection resourceslices with nodeName field selector");
            case null, default -> refuse("only the following verbs are allowed for a ResourceSlice: get, watch, "
                    + "list, create, update, patch, delete, deletecollection");
        };
    }

    /** Whether an {@code =}/{@code ==} requirement pins {@code field} to {@code value}. */
    static boolean selects(FieldSelector selector, String field, String value) {
        for (FieldSelector.Term t : selector.terms()) {
            if (t.equals() && t.field().equals(field) && t.value().equals(value)) {
                return true;
            }
        }
        return false;
    }
}

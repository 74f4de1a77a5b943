package io.kapi.authz.node;

import io.kapi.authz.AuthorizationAttributes;
import io.kapi.authz.Decision;
import io.kapi.authz.node.NodeGraph.Kind;
import io.kapi.request.Verb;

/**
 * What a node may do with Node and Pod objects (kube's {@code authorizeNode}, {@code authorizePod}):
 * read its own Node by name (even before it exists), write any Node and status (NodeRestriction
 * narrows it to its own); read pods bound to it, by name or listed with a {@code spec.nodeName}
 * selector; create and delete pods (mirror pods, narrowed by NodeRestriction), update pods' status
 * and evict them. Anything else has no opinion.
 */
final class NodeObjects {

    private NodeObjects() {
    }

    static Decision node(String node, AuthorizationAttributes a) {
        Verb verb = a.verb();
        if (a.subresource().isEmpty()) {
            if (verb == Verb.CREATE || verb == Verb.UPDATE || verb == Verb.PATCH) {
                return Decision.allow();
            }
            if (verb == Verb.GET || verb == Verb.LIST || verb == Verb.WATCH) {
                if (a.name().equals(node)) {
                    return Decision.allow();
                }
                return NodeRules.refuse(a.name().isEmpty()
                        ? "node '%s' cannot read all nodes, only its own Node object".formatted(node)
                        : "node '%s' cannot read '%s', only its own Node object".formatted(node, a.name()));
            }
        } else if (a.subresource().equals("status") && (verb == Verb.UPDATE || verb == Verb.PATCH)) {
            return Decision.allow();
        }
        return Decision.noOpinion();
    }

    static Decision pod(NodeGraph graph, String node, AuthorizationAttributes a) {
        Verb verb = a.verb();
        switch (a.subresource()) {
            case "" -> {
                if (verb == Verb.GET) {
                    return NodeRules.get(graph, node, Kind.POD, a);
                }
                if (verb == Verb.LIST || verb == Verb.WATCH) {
                    if (NodeRules.selects(a.fieldRequirements(), "spec.nodeName", node)) {
                        return Decision.allow();
                    }
                    if (!a.name().isEmpty()) {
                        return NodeRules.related(graph, node, Kind.POD, a);
                    }
                    return NodeRules.refuse("can only list/watch pods with spec.nodeName field selector");
                }
                if (verb == Verb.CREATE || verb == Verb.DELETE) {
                    return Decision.allow();
                }
            }
            case "status" -> {
                if (verb == Verb.UPDATE || verb == Verb.PATCH) {
                    return Decision.allow();
                }
            }
            case "eviction" -> {
                if (verb == Verb.CREATE) {
                    return Decision.allow();
                }
            }
            default -> {
            }
        }
        return Decision.noOpinion();
    }
}

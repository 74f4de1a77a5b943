package io.kapi.authz.node;

import io.kapi.user.UserInfo;

/**
 * Who is a kubelet, as kube's {@code nodeidentifier.NewDefaultNodeIdentifier}: a user named
 * {@code system:node:<name>} in the group {@code system:nodes}. Shared by the Node authorizer and the
 * NodeRestriction admission plugin.
 */
public final class NodeIdentity {

    public static final String USER_PREFIX = "system:node:";
    public static final String GROUP = "system:nodes";

    private NodeIdentity() {
    }

    /**
     * The node {@code user} speaks for: null when it is not a node at all; "" when it is in
     * {@code system:nodes} with the prefix but no name after it (an unidentifiable node).
     */
    public static String nodeName(UserInfo user) {
        if (user == null || !user.name().startsWith(USER_PREFIX) || !user.groups().contains(GROUP)) {
            return null;
        }
        return user.name().substring(USER_PREFIX.length());
    }
}

package io.kapi.user;

import java.util.List;

/**
 * The identities Kapi's own components act under, as kube names them: the API server's loopback
 * user and the service accounts of kube-controller-manager's controllers (which the bootstrap RBAC
 * policy binds to their {@code system:controller:*} roles).
 */
public final class SystemUsers {

    /** kube's {@code user.SystemPrivilegedGroup}: its members may do anything, whatever the authorizers say. */
    public static final String MASTERS = "system:masters";

    /** kube-apiserver's loopback identity, in {@code system:masters}. */
    public static final UserInfo APISERVER = new UserInfo("system:apiserver", "",
            List.of(MASTERS, "system:authenticated"));

    /** kube-controller-manager's own (root) identity, bound to {@code system:kube-controller-manager}. */
    public static final UserInfo CONTROLLER_MANAGER = new UserInfo("system:kube-controller-manager", "",
            List.of("system:authenticated"));

    /** kube-scheduler's identity, bound to {@code system:kube-scheduler} and {@code system:volume-scheduler}. */
    public static final UserInfo KUBE_SCHEDULER = new UserInfo("system:kube-scheduler", "",
            List.of("system:authenticated"));

    private SystemUsers() {
    }

    /** The service account a kube-controller-manager controller runs as, e.g. {@code namespace-controller}. */
    public static UserInfo controller(String name) {
        return new UserInfo("system:serviceaccount:kube-system:" + name, "", List.of("system:serviceaccounts",
                "system:serviceaccounts:kube-system", "system:authenticated"));
    }
}

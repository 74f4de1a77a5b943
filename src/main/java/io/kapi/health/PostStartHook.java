package io.kapi.health;

/**
 * Work run once after the server listens, like kube-apiserver's post-start hooks (creating system
 * namespaces, bootstrap RBAC). Each hook appears as the readiness check {@code poststarthook/{name}},
 * failing until the hook has returned; a hook that throws is retried by the server with back-off.
 */
public interface PostStartHook {

    String name();

    void run() throws Exception;
}

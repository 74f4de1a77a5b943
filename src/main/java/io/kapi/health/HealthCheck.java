package io.kapi.health;

/**
 * A named check behind {@code /healthz}, {@code /livez} and {@code /readyz}, e.g. {@code etcd} or
 * {@code poststarthook/start-system-namespaces-controller}. Checks must be quick and must not block.
 */
public interface HealthCheck {

    /** The name shown in {@code ?verbose} output and served at {@code /readyz/{name}}. */
    String name();

    /**
     * Throws when unhealthy. The message is logged, never sent to clients (they see
     * "reason withheld").
     */
    void check() throws Exception;

    /**
     * Whether the check is one of {@code /readyz} only, as kube-apiserver's {@code etcd-readiness} and
     * {@code informer-sync}: a server that fails it is not ready but still alive.
     */
    default boolean readyzOnly() {
        return false;
    }
}

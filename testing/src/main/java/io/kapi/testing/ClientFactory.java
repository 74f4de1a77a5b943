package io.kapi.testing;

/**
 * Makes and closes the clients of one client library for the extension. Each library's factory is
 * loaded by name, only when a test asks for that library's type, so the libraries stay optional.
 */
interface ClientFactory {

    /** The factories by the type a test declares, e.g. fabric8's {@code KubernetesClient}. */
    static String factoryClassFor(Class<?> type) {
        return switch (type.getName()) {
            // fabric8's client, as the types its mock server's extension also fills: one client for all three
            case "io.fabric8.kubernetes.client.KubernetesClient", "io.fabric8.kubernetes.client.NamespacedKubernetesClient",
                 "io.fabric8.kubernetes.client.Client" -> "io.kapi.testing.Fabric8Clients$Factory";
            case "io.kubernetes.client.openapi.ApiClient" -> "io.kapi.testing.JavaClients$Factory";
            default -> null;
        };
    }

    /** A client of {@code server} as the admin user, whose default namespace (where it has one) is {@code namespace}. */
    Object open(KapiServer server, String namespace);

    /** Closes a client this factory opened, so that none of its threads or connections are left. */
    void close(Object client);
}

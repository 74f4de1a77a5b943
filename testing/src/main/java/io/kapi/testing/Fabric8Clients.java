package io.kapi.testing;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * fabric8 clients of an in-process server (needs {@code io.fabric8:kubernetes-client} on the class
 * path). The configuration is built from the server's certificates alone: nothing is read from
 * {@code ~/.kube/config} or the environment, so a developer's own cluster is never touched.
 */
public final class Fabric8Clients {

    private Fabric8Clients() {
    }

    /** A client as the admin user, with {@code default} as its namespace; the caller closes it. */
    public static KubernetesClient client(KapiServer server) {
        return client(server, "default");
    }

    /** A client as the admin user, with {@code namespace} as its default namespace; the caller closes it. */
    public static KubernetesClient client(KapiServer server, String namespace) {
        return new KubernetesClientBuilder().withConfig(config(server, namespace)).build();
    }

    /** The configuration {@link #client} uses. */
    public static Config config(KapiServer server, String namespace) {
        return new ConfigBuilder(Config.empty())
                .withMasterUrl(server.url())
                .withCaCertData(base64(server.caCertificatePem()))
                .withClientCertData(base64(server.adminCertificatePem()))
                .withClientKeyData(base64(server.adminKeyPem()))
                .withClientKeyAlgo("EC")
                .withNamespace(namespace)
                .build();
    }

    private static String base64(String pem) {
        return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
    }

    /** For the extension. */
    static final class Factory implements ClientFactory {
        @Override
        public Object open(KapiServer server, String namespace) {
            return client(server, namespace);
        }

        @Override
        public void close(Object client) {
            ((KubernetesClient) client).close();
        }
    }
}

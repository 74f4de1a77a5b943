package io.kapi.testing;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import okhttp3.OkHttpClient;

/**
 * Clients of the official Kubernetes Java client ({@code io.kubernetes:client-java}) for an in-process
 * server, built from its kubeconfig alone (never {@code ~/.kube/config}).
 */
public final class JavaClients {

    private JavaClients() {
    }

    /** An {@link ApiClient} as the admin user; release it with {@link #close(ApiClient)}. */
    public static ApiClient apiClient(KapiServer server) {
        try {
            return ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(new StringReader(server.kubeconfig()))).build();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot configure the Java client for " + server.url(), e);
        }
    }

    /** Stops the client's HTTP threads and closes its connections (an ApiClient has no close of its own). */
    public static void close(ApiClient client) {
        OkHttpClient http = client.getHttpClient();
        http.dispatcher().executorService().shutdown();
        http.connectionPool().evictAll();
    }

    /** For the extension; the Java client has no default namespace, tests take it as a {@link KapiNamespace} String. */
    static final class Factory implements ClientFactory {
        @Override
        public Object open(KapiServer server, String namespace) {
            return apiClient(server);
        }

        @Override
        public void close(Object client) {
            JavaClients.close((ApiClient) client);
        }
    }
}

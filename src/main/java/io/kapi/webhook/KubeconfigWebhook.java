package io.kapi.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.certs.Pem;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;

/**
 * A webhook kube-apiserver calls (token authentication, authorization), configured by a kubeconfig file
 * as kube reads one for webhooks: the current context's (else the first) cluster {@code server},
 * {@code certificate-authority}/{@code -data}, and user {@code client-certificate}/{@code client-key}
 * (or {@code -data}) and {@code token}. Relative file names are relative to the kubeconfig. The server's
 * certificate is checked as every webhook's ({@link WebhookTrust}: the CA, else the system roots, and the
 * host's name).
 */
public final class KubeconfigWebhook {

    private final URI server;
    private final HttpClient http;
    private final String token;
    private final Duration timeout;

    private KubeconfigWebhook(URI server, HttpClient http, String token, Duration timeout) {
        this.server = server;
        this.http = http;
        this.token = token;
        this.timeout = timeout;
    }

    /** @throws IllegalArgumentException for a kubeconfig that names no server or unreadable credentials */
    public static KubeconfigWebhook fromKubeconfig(Path file, Duration timeout) {
        JsonNode config;
        try {
            config = Json.yaml().readTree(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read webhook kubeconfig " + file, e);
        }
        JsonNode context = named(config.path("contexts"), config.path("current-context").asText("")).path("context");
        JsonNode cluster = named(config.path("clusters"), context.path("cluster").asText("")).path("cluster");
        JsonNode user = named(config.path("users"), context.path("user").asText("")).path("user");
        String server = cluster.path("server").asText("");
        if (server.isEmpty()) {
            throw new IllegalArgumentException("webhook kubeconfig " + file + " names no cluster server");
        }
        Path dir = file.toAbsolutePath().getParent();
        try {
            String caPem = pem(cluster, "certificate-authority", dir);
            String certPem = pem(user, "client-certificate", dir);
            String keyPem = pem(user, "client-key", dir);
            URI uri = URI.create(server);
            byte[] ca = caPem == null ? new byte[0] : caPem.getBytes(StandardCharsets.US_ASCII);
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .sslContext(WebhookTrust.context(ca, uri.getHost(), certPem == null ? null : keyManagers(certPem, keyPem)))
                    .connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build();
            String token = user.path("token").asText("");
            return new KubeconfigWebhook(uri, http, token.isEmpty() ? null : token, timeout);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException("webhook kubeconfig " + file + ": " + e.getMessage(), e);
        }
    }

    /** The entry called {@code name} of a kubeconfig list, or its first entry. */
    private static JsonNode named(JsonNode list, String name) {
        for (JsonNode entry : list) {
            if (entry.path("name").asText().equals(name)) {
                return entry;
            }
        }
        return list.path(0);
    }

    private static String pem(JsonNode node, String field, Path dir) throws IOException {
        String data = node.path(field + "-data").asText("");
        if (!data.isEmpty()) {
            return new String(Base64.getDecoder().decode(data), StandardCharsets.US_ASCII);
        }
        String file = node.path(field).asText("");
        return file.isEmpty() ? null : Files.readString(dir.resolve(file));
    }

    private static javax.net.ssl.KeyManager[] keyManagers(String certPem, String keyPem)
            throws GeneralSecurityException, IOException {
        if (keyPem == null) {
            throw new IllegalArgumentException("client-certificate without client-key");
        }
        List<X509Certificate> chain = Pem.certificates(certPem);
        PrivateKey key = Pem.privateKey(keyPem);
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("client", key, new char[0], chain.toArray(new X509Certificate[0]));
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(store, new char[0]);
        return kmf.getKeyManagers();
    }

    /**
     * POSTs {@code review} (JSON) and returns the webhook's answer, through the server's one webhook
     * exchange ({@link WebhookClient}): the whole call held to the timeout, failures worded as Go's.
     *
     * @throws IOException when the webhook cannot be reached, answers other than 2xx, or not JSON
     */
    public JsonNode post(JsonNode review) throws IOException {
        try {
            return WebhookClient.exchange(http, server, token, review, timeout);
        } catch (WebhookClient.CallFailure e) {
            throw new IOException(e.getMessage(), e);
        }
    }
}

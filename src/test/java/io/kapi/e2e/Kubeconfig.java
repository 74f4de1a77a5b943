package io.kapi.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Base64;
import java.util.Collection;
import java.util.Optional;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

/**
 * The TLS half of a kubeconfig's current context: server address, cluster CA, client certificate and
 * key (all PEM). Reads both the {@code *-data} (base64) and the file-path forms, as kubectl does.
 *
 * @param server the API server URL, e.g. {@code https://127.0.0.1:6443}
 * @param caPem the cluster CA bundle
 * @param clientCertPem the client certificate chain, empty when the user has none
 * @param clientKeyPem the client private key, empty when the user has none
 */
public record Kubeconfig(URI server, String caPem, Optional<String> clientCertPem, Optional<String> clientKeyPem) {

    /** Reads the current context of the kubeconfig at {@code file}; fails if it is missing or malformed. */
    public static Kubeconfig load(Path file) {
        try {
            JsonNode root = Json.yaml().readTree(Files.readString(file));
            String context = root.path("current-context").asText();
            JsonNode ctx = named(root.path("contexts"), context).path("context");
            JsonNode cluster = named(root.path("clusters"), ctx.path("cluster").asText()).path("cluster");
            JsonNode user = named(root.path("users"), ctx.path("user").asText()).path("user");
            Path base = file.toAbsolutePath().getParent();
            String server = cluster.path("server").asText();
            if (server.isEmpty()) {
                throw new IllegalArgumentException(file + ": context " + context + " has no cluster server");
            }
            return new Kubeconfig(URI.create(server),
                    pem(cluster, "certificate-authority", base).orElseThrow(
                            () -> new IllegalArgumentException(file + ": no certificate-authority")),
                    pem(user, "client-certificate", base), pem(user, "client-key", base));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** TLS trusting only the cluster CA and presenting the client certificate (if any). */
    public SSLContext sslContext() {
        return sslContext(true);
    }

    /** TLS trusting only the cluster CA, presenting no client certificate (an anonymous caller). */
    public SSLContext anonymousSslContext() {
        return sslContext(false);
    }

    private SSLContext sslContext(boolean withClientCert) {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            int i = 0;
            for (Certificate ca : certificates(caPem)) {
                trust.setCertificateEntry("ca-" + i++, ca);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            KeyManagerFactory kmf = null;
            if (withClientCert && clientCertPem.isPresent() && clientKeyPem.isPresent()) {
                char[] password = "e2e".toCharArray();
                KeyStore keys = KeyStore.getInstance("PKCS12");
                keys.load(null, null);
                keys.setKeyEntry("client", privateKey(clientKeyPem.get()), password,
                        certificates(clientCertPem.get()).toArray(Certificate[]::new));
                kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(keys, password);
            }
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
            return ssl;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot build TLS context from kubeconfig for " + server, e);
        }
    }

    /** The JCA algorithm of the client key ({@code EC}, {@code RSA}, ...); fails if there is no client key. */
    public String clientKeyAlgorithm() {
        try {
            return privateKey(clientKeyPem.orElseThrow()).getAlgorithm();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode named(JsonNode list, String name) {
        for (JsonNode entry : list) {
            if (name.equals(entry.path("name").asText())) {
                return entry;
            }
        }
        throw new IllegalArgumentException("kubeconfig has no entry named '" + name + "'");
    }

    private static Optional<String> pem(JsonNode node, String field, Path base) throws IOException {
        String data = node.path(field + "-data").asText("");
        if (!data.isEmpty()) {
            return Optional.of(new String(Base64.getMimeDecoder().decode(data), StandardCharsets.UTF_8));
        }
        String path = node.path(field).asText("");
        return path.isEmpty() ? Optional.empty() : Optional.of(Files.readString(base.resolve(path)));
    }

    private static Collection<? extends Certificate> certificates(String pem) throws GeneralSecurityException {
        return CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
    }

    private static PrivateKey privateKey(String pem) throws IOException {
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            Object parsed = parser.readObject();
            JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
            return switch (parsed) {
                case PEMKeyPair pair -> converter.getKeyPair(pair).getPrivate();
                case PrivateKeyInfo info -> converter.getPrivateKey(info);
                case null, default -> throw new IOException("unsupported client key PEM: " + parsed);
            };
        }
    }
}

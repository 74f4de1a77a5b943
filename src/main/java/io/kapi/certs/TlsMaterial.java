package io.kapi.certs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.function.Function;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;

/**
 * What the HTTPS listener needs: the serving key with its certificate chain (leaf first), and the
 * CAs that client certificates are verified against (empty: client certificates are not asked for).
 */
public record TlsMaterial(PrivateKey servingKey, List<X509Certificate> servingChain,
                          List<X509Certificate> clientCas) {

    public TlsMaterial {
        servingChain = List.copyOf(servingChain);
        clientCas = List.copyOf(clientCas);
        if (servingChain.isEmpty()) {
            throw new IllegalArgumentException("serving certificate chain is empty");
        }
    }

    /**
     * Reads {@code --tls-cert-file}, {@code --tls-private-key-file} and the optional
     * {@code --client-ca-file} (null for none).
     *
     * @throws IllegalArgumentException naming the file that cannot be read or parsed
     */
    public static TlsMaterial fromFiles(Path certFile, Path keyFile, Path clientCaFile) {
        List<X509Certificate> chain = parse(certFile, Pem::certificates);
        PrivateKey key = parse(keyFile, Pem::privateKey);
        List<X509Certificate> cas = clientCaFile == null ? List.of() : parse(clientCaFile, Pem::certificates);
        return new TlsMaterial(key, chain, cas);
    }

    /**
     * This material also asking for client certificates of {@code more} CAs in the handshake, as
     * kube-apiserver adds {@code --requestheader-client-ca-file} to {@code --client-ca-file} there: a front
     * proxy's client (which picks its certificate by the accepted issuers) then presents its own.
     */
    public TlsMaterial acceptingAlso(List<X509Certificate> more) {
        if (more.isEmpty()) {
            return this;
        }
        List<X509Certificate> all = new java.util.ArrayList<>(clientCas);
        more.stream().filter(c -> !all.contains(c)).forEach(all::add);
        return new TlsMaterial(servingKey, servingChain, all);
    }

    /**
     * A server SSLContext presenting the serving chain and asking for client certificates from
     * {@link #clientCas()}, without verifying them: that is the authenticator's job (see
     * {@link RequestedClientCertificates}).
     */
    public SSLContext serverContext() {
        try {
            TrustManager[] trust = clientCas.isEmpty() ? null
                    : new TrustManager[] {new RequestedClientCertificates(clientCas)};
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(new KeyManager[] {new ServingKeyManager(servingKey, servingChain)}, trust, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot build the server TLS context", e);
        }
    }

    /** A key store holding {@code certificates} as trusted entries. */
    public static KeyStore trustStore(List<X509Certificate> certificates) throws GeneralSecurityException, IOException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        for (int i = 0; i < certificates.size(); i++) {
            store.setCertificateEntry("ca-" + i, certificates.get(i));
        }
        return store;
    }

    private static <T> T parse(Path file, Function<String, T> parser) {
        try {
            return parser.apply(Files.readString(file));
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }
}

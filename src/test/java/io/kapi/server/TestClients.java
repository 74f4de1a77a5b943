package io.kapi.server;

import io.kapi.certs.LocalPki;
import io.kapi.certs.Pem;
import io.kapi.certs.TlsMaterial;
import java.net.http.HttpClient;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** HTTP clients trusting a {@link LocalPki}'s CA, with or without its admin client certificate. */
final class TestClients {

    private TestClients() {
    }

    static HttpClient admin(LocalPki pki) throws Exception {
        return client(pki, true);
    }

    static HttpClient anonymous(LocalPki pki) throws Exception {
        return client(pki, false);
    }

    /** A TLS context trusting {@code pki}'s CA and presenting {@code certificate} with {@code key}. */
    static SSLContext presenting(LocalPki pki, java.security.PrivateKey key, X509Certificate certificate)
            throws Exception {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(TlsMaterial.trustStore(List.of(pki.ca())));
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry("client", key, new char[0], new X509Certificate[] {certificate});
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, new char[0]);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(new javax.net.ssl.KeyManager[] {new AlwaysPresenting(
                (javax.net.ssl.X509ExtendedKeyManager) kmf.getKeyManagers()[0])}, tmf.getTrustManagers(), null);
        return context;
    }

    /**
     * Presents its one certificate whatever CAs the server names, as Go's client (kubectl) does: the JDK's own
     * key manager withholds a certificate whose issuer the server did not name, and the server then sees none.
     */
    private static final class AlwaysPresenting extends javax.net.ssl.X509ExtendedKeyManager {
        private final javax.net.ssl.X509ExtendedKeyManager keys;

        AlwaysPresenting(javax.net.ssl.X509ExtendedKeyManager keys) {
            this.keys = keys;
        }

        @Override
        public String chooseClientAlias(String[] keyType, java.security.Principal[] issuers, java.net.Socket socket) {
            return "client";
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, java.security.Principal[] issuers,
                                              javax.net.ssl.SSLEngine engine) {
            return "client";
        }

        @Override
        public String[] getClientAliases(String keyType, java.security.Principal[] issuers) {
            return new String[] {"client"};
        }

        @Override
        public String[] getServerAliases(String keyType, java.security.Principal[] issuers) {
            return keys.getServerAliases(keyType, issuers);
        }

        @Override
        public String chooseServerAlias(String keyType, java.security.Principal[] issuers, java.net.Socket socket) {
            return keys.chooseServerAlias(keyType, issuers, socket);
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return keys.getCertificateChain(alias);
        }

        @Override
        public java.security.PrivateKey getPrivateKey(String alias) {
            return keys.getPrivateKey(alias);
        }
    }

    private static HttpClient client(LocalPki pki, boolean withCertificate) throws Exception {
        return HttpClient.newBuilder().sslContext(tls(pki, withCertificate)).version(HttpClient.Version.HTTP_2)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** TLS trusting the CA, with the admin client certificate when {@code withCertificate}. */
    static SSLContext tls(LocalPki pki, boolean withCertificate) throws Exception {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(TlsMaterial.trustStore(List.of(pki.ca())));
        KeyManagerFactory kmf = null;
        if (withCertificate) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(null, null);
            keys.setKeyEntry("admin", Pem.privateKey(pki.adminKeyPem()), new char[0],
                    new X509Certificate[] {pki.adminCertificate()});
            kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, new char[0]);
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return context;
    }
}

package io.kapi.certs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.util.Date;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("certificates given with --tls-cert-file and --tls-private-key-file")
class TlsMaterialTest {

    @TempDir
    Path dir;

    /** Writes a self-signed certificate and its key the way openssl does (PKCS#1 / SEC1 key blocks). */
    private Path[] write(String algorithm) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
        generator.initialize(algorithm.equals("RSA") ? 2048 : 256);
        KeyPair pair = generator.generateKeyPair();
        X500Name name = new X500Name("CN=test");
        X509Certificate cert = new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(
                name, BigInteger.TEN, new Date(), new Date(System.currentTimeMillis() + 86_400_000L), name,
                pair.getPublic()).build(new JcaContentSignerBuilder(
                        algorithm.equals("RSA") ? "SHA256withRSA" : "SHA256withECDSA").build(pair.getPrivate())));
        StringWriter key = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(key)) {
            if (algorithm.equals("RSA")) {
                w.writeObject(pair);
            } else {
                w.writeObject(sec1(pair));
            }
        }
        Path certFile = Files.writeString(dir.resolve("tls.crt"), Pem.encode(cert));
        Path keyFile = Files.writeString(dir.resolve("tls.key"), key.toString());
        return new Path[] {certFile, keyFile};
    }

    /** An EC key as openssl writes it: SEC1 with the curve and the public key inside. */
    private static PemObject sec1(KeyPair pair) throws Exception {
        PrivateKeyInfo info = PrivateKeyInfo.getInstance(pair.getPrivate().getEncoded());
        ECPrivateKey inner = ECPrivateKey.getInstance(info.parsePrivateKey());
        SubjectPublicKeyInfo pub = SubjectPublicKeyInfo.getInstance(pair.getPublic().getEncoded());
        ECPrivateKey full = new ECPrivateKey(256, inner.getKey(), pub.getPublicKeyData(),
                info.getPrivateKeyAlgorithm().getParameters());
        return new PemObject("EC PRIVATE KEY", full.getEncoded());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"RSA", "EC"})
    @DisplayName("PEM files with RSA or EC keys are read and make a server TLS context")
    void readsKeys(String algorithm) throws Exception {
        Path[] files = write(algorithm);
        assertTrue(Files.readString(files[1]).contains("BEGIN " + algorithm + " PRIVATE KEY"));
        TlsMaterial tls = TlsMaterial.fromFiles(files[0], files[1], files[0]);
        assertEquals(algorithm, tls.servingKey().getAlgorithm());
        assertEquals(1, tls.clientCas().size());
        tls.serverContext();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"RSA TLSv1.3", "RSA TLSv1.2", "EC TLSv1.3", "EC TLSv1.2"})
    @DisplayName("the server context presents the serving certificate in a real handshake, for either key type")
    void handshake(String keyAndProtocol) throws Exception {
        String[] parts = keyAndProtocol.split(" ");
        Path[] files = write(parts[0]);
        TlsMaterial tls = TlsMaterial.fromFiles(files[0], files[1], null);
        javax.net.ssl.SSLContext client = javax.net.ssl.SSLContext.getInstance("TLS");
        client.init(null, trusting(tls.servingChain().getFirst()), null);
        try (var server = (javax.net.ssl.SSLServerSocket) tls.serverContext().getServerSocketFactory()
                .createServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            server.setEnabledProtocols(new String[] {parts[1]});
            var accepted = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try (var socket = (javax.net.ssl.SSLSocket) server.accept()) {
                    socket.startHandshake();
                    return socket.getSession().getProtocol();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            try (var socket = (javax.net.ssl.SSLSocket) client.getSocketFactory()
                    .createSocket(server.getInetAddress(), server.getLocalPort())) {
                socket.startHandshake();
                assertEquals(tls.servingChain().getFirst(), socket.getSession().getPeerCertificates()[0]);
                assertEquals(parts[1], socket.getSession().getProtocol());
            }
            assertEquals(parts[1], accepted.get(30, java.util.concurrent.TimeUnit.SECONDS));
        }
    }

    private static javax.net.ssl.TrustManager[] trusting(X509Certificate cert) throws Exception {
        javax.net.ssl.TrustManagerFactory factory = javax.net.ssl.TrustManagerFactory.getInstance("PKIX");
        factory.init(TlsMaterial.trustStore(java.util.List.of(cert)));
        return factory.getTrustManagers();
    }

    @Test
    @DisplayName("a PKCS#8 key, as Kapi writes them, reads back")
    void pkcs8() throws Exception {
        Path[] files = write("EC");
        TlsMaterial tls = TlsMaterial.fromFiles(files[0], files[1], null);
        String pkcs8 = Pem.encode(tls.servingKey());
        assertTrue(pkcs8.startsWith("-----BEGIN PRIVATE KEY-----"), pkcs8);
        assertEquals(tls.servingKey(), Pem.privateKey(pkcs8));
    }

    @Test
    @DisplayName("a file that is not PEM is named in the error")
    void notPem() throws Exception {
        Path junk = Files.writeString(dir.resolve("junk.crt"), "hello");
        Path[] files = write("EC");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TlsMaterial.fromFiles(junk, files[1], null));
        assertTrue(e.getMessage().contains("junk.crt"), e.getMessage());
    }
}

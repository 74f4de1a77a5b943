package io.kapi.certs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SignatureException;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("certificates made on first start")
class LocalPkiTest {

    @TempDir
    Path dir;

    private static final ServingNames NAMES = ServingNames.standard("node-1", "10.96.0.1", List.of("0.0.0.0", "192.168.1.5"));

    private static Set<String> sans(X509Certificate cert) throws Exception {
        Set<String> names = new HashSet<>();
        for (List<?> san : cert.getSubjectAlternativeNames()) {
            names.add(san.get(1).toString());
        }
        return names;
    }

    @Test
    @DisplayName("the serving certificate is signed by the CA and names every way to reach the server")
    void servingCertificate() throws Exception {
        LocalPki pki = LocalPki.ensure(dir, NAMES);
        X509Certificate serving = pki.tls().servingChain().getFirst();
        serving.verify(pki.ca().getPublicKey());
        assertEquals(Set.of("localhost", "node-1", "kubernetes", "kubernetes.default", "kubernetes.default.svc",
                "kubernetes.default.svc.cluster.local", "127.0.0.1", "10.96.0.1", "192.168.1.5"), sans(serving));
        assertTrue(serving.getExtendedKeyUsage().contains("1.3.6.1.5.5.7.3.1"), "serverAuth");
        assertEquals(-1, serving.getBasicConstraints());
        assertTrue(pki.ca().getBasicConstraints() >= 0, "the CA is a CA");
    }

    @Test
    @DisplayName("the admin certificate is kubernetes-admin in system:masters, for client auth")
    void adminCertificate() throws Exception {
        LocalPki pki = LocalPki.ensure(dir, NAMES);
        X509Certificate admin = pki.adminCertificate();
        admin.verify(pki.ca().getPublicKey());
        assertEquals("CN=kubernetes-admin,O=system:masters", admin.getSubjectX500Principal().getName());
        assertTrue(admin.getExtendedKeyUsage().contains("1.3.6.1.5.5.7.3.2"), "clientAuth");
    }

    @Test
    @DisplayName("bin/kapi's admin key is RSA; an EC admin key is SEC1 with its curve, which openssl and Kapi read back")
    void adminKeyKinds(@TempDir Path other) throws Exception {
        LocalPki rsa = LocalPki.ensure(dir, NAMES);
        assertTrue(rsa.adminKeyPem().startsWith("-----BEGIN RSA PRIVATE KEY-----"), rsa.adminKeyPem());
        LocalPki ec = LocalPki.ensure(other, NAMES, KeyType.EC_P256);
        String pem = Files.readString(other.resolve("admin.key"));
        assertEquals(pem, ec.adminKeyPem());
        assertTrue(pem.startsWith("-----BEGIN EC PRIVATE KEY-----"), pem);
        var key = (java.security.interfaces.ECPrivateKey) Pem.privateKey(pem);
        assertEquals(ec.adminCertificate().getPublicKey(), Pem.publicKeys(pem).getFirst(), "the public point is in the file");
        java.security.Signature signer = java.security.Signature.getInstance("SHA256withECDSA");
        signer.initSign(key);
        signer.update(new byte[] {1, 2, 3});
        byte[] signature = signer.sign();
        java.security.Signature verifier = java.security.Signature.getInstance("SHA256withECDSA");
        verifier.initVerify(ec.adminCertificate());
        verifier.update(new byte[] {1, 2, 3});
        assertTrue(verifier.verify(signature), "the key is the certificate's");
        String out = Openssl.ok(other, "ec", "-in", "admin.key", "-check", "-noout", "-text");
        assertTrue(out.contains("ASN1 OID: prime256v1") && out.contains("pub:"), out);
    }

    private String openssl(String... args) throws Exception {
        return Openssl.ok(dir, args);
    }

    @Test
    @DisplayName("openssl verifies the chain for each purpose and reads the extensions kubeadm's certificates have")
    void opensslReadsTheCertificates() throws Exception {
        LocalPki.ensure(dir, NAMES);
        assertTrue(openssl("verify", "-CAfile", "ca.crt", "-purpose", "sslserver", "apiserver.crt").contains("OK"));
        assertTrue(openssl("verify", "-CAfile", "ca.crt", "-purpose", "sslclient", "admin.crt").contains("OK"));
        String ca = openssl("x509", "-in", "ca.crt", "-noout", "-text");
        assertTrue(ca.contains("CA:TRUE") && ca.contains("Digital Signature, Certificate Sign, CRL Sign")
                && ca.contains("ecdsa-with-SHA256") && ca.contains("Subject: CN = kapi-ca"), ca);
        String serving = openssl("x509", "-in", "apiserver.crt", "-noout", "-text");
        assertTrue(serving.contains("CA:FALSE") && serving.contains("TLS Web Server Authentication")
                && serving.contains("DNS:kubernetes.default.svc.cluster.local") && serving.contains("IP Address:10.96.0.1"), serving);
        String caKey = ca.substring(ca.indexOf("Subject Key Identifier:")).lines().skip(1).findFirst().orElseThrow().strip();
        assertTrue(serving.contains("Authority Key Identifier:") && serving.contains(caKey), caKey + " in " + serving);
        String admin = openssl("x509", "-in", "admin.crt", "-noout", "-subject", "-ext", "extendedKeyUsage");
        assertTrue(admin.contains("subject=O = system:masters, CN = kubernetes-admin") && admin.contains("TLS Web Client Authentication"),
                admin);
        Openssl.Result wrongPurpose = Openssl.run(dir, "verify", "-CAfile", "ca.crt", "-purpose", "sslserver", "admin.crt");
        assertNotEquals(0, wrongPurpose.exitCode(), "a client certificate is no serving certificate: " + wrongPurpose.output());
    }

    @Test
    @DisplayName("every file, certificates included, is readable only by the owner")
    void permissions() throws Exception {
        LocalPki.ensure(dir, NAMES).writeKubeconfig("https://127.0.0.1:6443");
        for (String name : List.of("ca.key", "apiserver.key", "admin.key", "admin.kubeconfig", "ca.crt",
                "apiserver.crt", "admin.crt")) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(name))),
                    name);
        }
    }

    @Test
    @DisplayName("a restart reuses the CA and certificates")
    void reuse() throws Exception {
        LocalPki first = LocalPki.ensure(dir, NAMES);
        String servingPem = Files.readString(dir.resolve("apiserver.crt"));
        LocalPki second = LocalPki.ensure(dir, NAMES);
        assertEquals(first.ca(), second.ca());
        assertEquals(first.adminCertificate(), second.adminCertificate());
        assertEquals(servingPem, Files.readString(dir.resolve("apiserver.crt")));
    }

    @Test
    @DisplayName("a CA made again (another key, the same name) issues the leaves again, which its key verifies")
    void newCa() throws Exception {
        LocalPki first = LocalPki.ensure(dir, NAMES);
        Files.delete(dir.resolve("ca.key"));
        Files.delete(dir.resolve("ca.crt"));
        LocalPki second = LocalPki.ensure(dir, NAMES);
        assertEquals(first.ca().getSubjectX500Principal(), second.ca().getSubjectX500Principal());
        assertNotEquals(first.ca(), second.ca());
        assertFalse(LocalPki.namesIssuer(first.adminCertificate(), second.ca()));
        for (X509Certificate leaf : List.of(second.adminCertificate(), second.tls().servingChain().getFirst())) {
            leaf.verify(second.ca().getPublicKey());
            assertTrue(LocalPki.namesIssuer(leaf, second.ca()));
        }
        assertThrows(SignatureException.class,
                () -> first.adminCertificate().verify(second.ca().getPublicKey()));
    }

    @Test
    @DisplayName("a new address issues a new serving certificate from the same CA")
    void newName() throws Exception {
        LocalPki first = LocalPki.ensure(dir, NAMES);
        LocalPki second = LocalPki.ensure(dir, ServingNames.standard("node-1", "10.96.0.1", List.of("192.168.1.9")));
        assertEquals(first.ca(), second.ca());
        assertNotEquals(first.tls().servingChain().getFirst(), second.tls().servingChain().getFirst());
        assertTrue(sans(second.tls().servingChain().getFirst()).contains("192.168.1.9"));
    }

    @Test
    @DisplayName("the kubeconfig embeds the CA and admin credentials and points at the real port")
    void kubeconfig() throws Exception {
        LocalPki pki = LocalPki.ensure(dir, NAMES);
        Path file = pki.writeKubeconfig("https://127.0.0.1:40123");
        assertTrue(file.isAbsolute());
        JsonNode config = Json.yaml().readTree(file.toFile());
        JsonNode cluster = config.path("clusters").get(0).path("cluster");
        assertEquals("https://127.0.0.1:40123", cluster.path("server").asText());
        String caPem = new String(Base64.getDecoder().decode(cluster.path("certificate-authority-data").asText()),
                StandardCharsets.US_ASCII);
        assertEquals(pki.ca(), Pem.certificates(caPem).getFirst());
        JsonNode user = config.path("users").get(0).path("user");
        String certPem = new String(Base64.getDecoder().decode(user.path("client-certificate-data").asText()),
                StandardCharsets.US_ASCII);
        assertEquals(pki.adminCertificate(), Pem.certificates(certPem).getFirst());
        String keyPem = new String(Base64.getDecoder().decode(user.path("client-key-data").asText()),
                StandardCharsets.US_ASCII);
        assertEquals(pki.adminCertificate().getPublicKey().getAlgorithm(), Pem.privateKey(keyPem).getAlgorithm());
        assertEquals(config.path("contexts").get(0).path("name").asText(), config.path("current-context").asText());
    }
}

package io.kapi.certs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** PEM files as openssl writes and reads them: openssl is the other side of every case. */
@DisplayName("PEM keys and certificates, read and written as openssl does")
class PemTest {

    @TempDir
    Path dir;

    private String openssl(String... args) throws Exception {
        return Openssl.ok(dir, args);
    }

    private String file(String name) throws Exception {
        return Files.readString(dir.resolve(name));
    }

    /** The private key signs what the public key verifies: the two halves belong together. */
    private static void assertPair(PrivateKey key, PublicKey pub) throws Exception {
        String algorithm = key.getAlgorithm().equals("RSA") ? "SHA256withRSA" : "SHA256withECDSA";
        Signature signer = Signature.getInstance(algorithm);
        signer.initSign(key);
        signer.update(new byte[] {1, 2, 3});
        Signature verifier = Signature.getInstance(algorithm);
        verifier.initVerify(pub);
        verifier.update(new byte[] {1, 2, 3});
        assertTrue(verifier.verify(signer.sign()), "the public key verifies the private key's signature");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out key.pem",
        "genrsa -traditional -out key.pem 2048",
        "ecparam -name prime256v1 -genkey -out key.pem",
        "ecparam -name secp384r1 -genkey -noout -out key.pem",
        "genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out key.pem",
    })
    @DisplayName("openssl's private keys (PKCS#8, PKCS#1, SEC1 with or without EC PARAMETERS) read, with their public half")
    void opensslKeys(String generate) throws Exception {
        openssl(generate.split(" "));
        openssl("pkey", "-in", "key.pem", "-pubout", "-out", "pub.pem");
        PrivateKey key = Pem.privateKey(file("key.pem"));
        PublicKey pub = Pem.publicKeys(file("pub.pem")).getFirst();
        assertEquals(pub, Pem.publicKeys(file("key.pem")).getFirst(), "the public key derived from the private key");
        assertPair(key, pub);
    }

    @Test
    @DisplayName("a SEC1 key without its public point still gives its public key (d·G, as Go derives it)")
    void sec1WithoutPublicKey() throws Exception {
        openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "full.pem");
        openssl("ec", "-in", "full.pem", "-no_public", "-out", "key.pem");
        openssl("pkey", "-in", "full.pem", "-pubout", "-out", "pub.pem");
        assertTrue(file("key.pem").contains("BEGIN EC PRIVATE KEY"), file("key.pem"));
        assertEquals(Pem.publicKeys(file("pub.pem")).getFirst(), Pem.publicKeys(file("key.pem")).getFirst());
    }

    @Test
    @DisplayName("an RSA PUBLIC KEY (PKCS#1) and a certificate's key read")
    void publicForms() throws Exception {
        openssl("genrsa", "-out", "key.pem", "2048");
        openssl("rsa", "-in", "key.pem", "-RSAPublicKey_out", "-out", "rsapub.pem");
        openssl("req", "-x509", "-new", "-key", "key.pem", "-subj", "/CN=t", "-days", "1", "-out", "cert.pem");
        assertTrue(file("rsapub.pem").contains("BEGIN RSA PUBLIC KEY"));
        PrivateKey key = Pem.privateKey(file("key.pem"));
        assertPair(key, Pem.publicKeys(file("rsapub.pem")).getFirst());
        assertPair(key, Pem.publicKeys(file("cert.pem")).getFirst());
        assertEquals(Pem.certificates(file("cert.pem")).getFirst().getPublicKey(), Pem.publicKeys(file("cert.pem")).getFirst());
    }

    @ParameterizedTest
    @ValueSource(strings = {"RSA", "EC"})
    @DisplayName("keys Kapi writes are read by openssl as the same keys (RSA as PKCS#1, EC as PKCS#8 and SEC1)")
    void writtenKeys(String algorithm) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
        generator.initialize(algorithm.equals("RSA") ? 2048 : 256);
        KeyPair pair = generator.generateKeyPair();
        String pem = Pem.encode(pair.getPrivate());
        assertTrue(pem.startsWith(algorithm.equals("RSA") ? "-----BEGIN RSA PRIVATE KEY-----\n" : "-----BEGIN PRIVATE KEY-----\n"), pem);
        Files.writeString(dir.resolve("key.pem"), pem);
        Files.writeString(dir.resolve("pub.pem"), Pem.encode(pair.getPublic()));
        openssl("pkey", "-in", "key.pem", "-check", "-noout");
        openssl("pkey", "-in", "key.pem", "-pubout", "-out", "derived.pem");
        assertEquals(pair.getPublic(), Pem.publicKeys(file("derived.pem")).getFirst());
        assertEquals(file("pub.pem"), file("derived.pem"), "openssl writes the same PUBLIC KEY block");
        assertEquals(pair.getPrivate(), Pem.privateKey(pem));
        if (algorithm.equals("EC")) {
            String sec1 = Pem.encodeSec1((java.security.interfaces.ECPrivateKey) pair.getPrivate(), pair.getPublic());
            Files.writeString(dir.resolve("sec1.pem"), sec1);
            String text = openssl("ec", "-in", "sec1.pem", "-check", "-noout", "-text");
            assertTrue(text.contains("prime256v1"), text);
            // the same scalar (the JDK's key keeps the SEC1 block as read, so its encoding differs from the PKCS#8 one)
            assertEquals(((java.security.interfaces.ECPrivateKey) pair.getPrivate()).getS(),
                    ((java.security.interfaces.ECPrivateKey) Pem.privateKey(sec1)).getS());
            assertEquals(pair.getPublic(), Pem.publicKeys(sec1).getFirst());
        }
    }

    @Test
    @DisplayName("an encrypted key is refused, and text that is no PEM names the problem")
    void refused() throws Exception {
        openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-aes256", "-pass", "pass:x", "-out", "enc.pem");
        openssl("genrsa", "-aes128", "-traditional", "-passout", "pass:x", "-out", "legacy.pem", "2048");
        assertTrue(file("legacy.pem").contains("Proc-Type: 4,ENCRYPTED"), file("legacy.pem"));
        for (String name : List.of("enc.pem", "legacy.pem")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Pem.privateKey(file(name)));
            assertEquals("no unencrypted PEM private key found", e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> Pem.certificates("not pem"));
        assertThrows(IllegalArgumentException.class,
                () -> Pem.certificates("-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n"));
        assertThrows(IllegalArgumentException.class,
                () -> Pem.certificates("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"));
        assertThrows(IllegalArgumentException.class,
                () -> Pem.privateKey("-----BEGIN EC PRIVATE KEY-----\nMAMCAQE=\n-----END EC PRIVATE KEY-----\n"));
        assertThrows(IllegalArgumentException.class, () -> Pem.certificates("-----BEGIN CERTIFICATE-----\nAAAA\n"));
    }

    @Test
    @DisplayName("several certificates in one file read in order; text around the blocks is ignored")
    void bundles() throws Exception {
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "a.key",
                "-subj", "/CN=a", "-days", "1", "-out", "a.pem");
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "b.key",
                "-subj", "/CN=b", "-days", "1", "-out", "b.pem");
        String bundle = "subject=a\n" + file("a.pem") + "\r\n# b follows\n" + file("b.pem").replace("\n", "\r\n");
        List<String> names = Pem.certificates(bundle).stream().map(c -> c.getSubjectX500Principal().getName()).toList();
        assertEquals(List.of("CN=a", "CN=b"), names);
    }
}

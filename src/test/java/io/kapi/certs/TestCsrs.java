package io.kapi.certs;

import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder;

/** PKCS#10 certificate signing requests for tests, made by Bouncy Castle (not by the code they test). */
public final class TestCsrs {

    private TestCsrs() {
    }

    /** A CSR for {@code subject} (e.g. {@code CN=bob,O=dev}) on a fresh P-256 key, signed SHA256withECDSA, as PEM. */
    public static String pem(String subject) {
        return pem(subject, ecKeys("secp256r1"), "SHA256withECDSA");
    }

    /** A CSR for {@code subject} on {@code keys}, signed with {@code algorithm} (a JCA signature name), as PEM. */
    public static String pem(String subject, KeyPair keys, String algorithm) {
        try {
            JcaContentSignerBuilder signer = new JcaContentSignerBuilder(algorithm);
            if (algorithm.endsWith("MGF1")) { // RSASSA-PSS by Bouncy Castle's name: its provider signs it
                signer.setProvider(new org.bouncycastle.jce.provider.BouncyCastleProvider());
            }
            var csr = new JcaPKCS10CertificationRequestBuilder(new X500Name(subject), keys.getPublic())
                    .build(signer.build(keys.getPrivate()));
            StringWriter out = new StringWriter();
            try (JcaPEMWriter w = new JcaPEMWriter(out)) {
                w.writeObject(csr);
            }
            return out.toString();
        } catch (OperatorCreationException e) {
            throw new IllegalStateException(e);
        } catch (java.io.IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@link #pem(String)} as a CSR's {@code spec.request} holds it in JSON: base64. */
    public static String request(String subject) {
        return Base64.getEncoder().encodeToString(pem(subject).getBytes(StandardCharsets.UTF_8));
    }

    /** A certificate as a CSR's {@code status.certificate} holds it in JSON: base64 of its PEM. */
    public static String issuedCertificate(String cn) {
        try {
            return Base64.getEncoder().encodeToString(Pem.encode(TestCertificates.ca(cn).certificate())
                    .getBytes(StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    public static KeyPair ecKeys(String curve) {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec(curve));
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    public static KeyPair keys(String algorithm, int size) {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance(algorithm);
            if (size > 0) {
                g.initialize(size);
            }
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}

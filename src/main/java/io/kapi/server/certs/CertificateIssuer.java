package io.kapi.server.certs;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Makes the certificates of a single-node cluster: a CA and leaves signed by it. The CA and the
 * serving certificate have ECDSA P-256 keys (as k3s uses): made in a millisecond where an RSA key
 * takes a hundred or more, which is most of an in-process test server's first start, and only ever
 * used for signatures every TLS client verifies. Client certificates have RSA keys like kubeadm's,
 * since their key is read by client libraries (fabric8 cannot read EC keys in PKCS#8 form).
 */
final class CertificateIssuer {

    static final Duration CA_VALIDITY = Duration.ofDays(3650);
    static final Duration LEAF_VALIDITY = Duration.ofDays(365);
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A CA certificate with its key. */
    record Issued(X509Certificate certificate, PrivateKey key) {
    }

    private CertificateIssuer() {
    }

    static Issued selfSignedCa(String commonName) {
        KeyPair pair = newKeyPair(KeyType.EC_P256);
        X500Name subject = name(commonName, List.of());
        X509v3CertificateBuilder builder = builder(subject, subject, pair.getPublic(), CA_VALIDITY);
        try {
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            builder.addExtension(Extension.keyUsage, true,
                    new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign | KeyUsage.digitalSignature));
            builder.addExtension(Extension.subjectKeyIdentifier, false,
                    new JcaX509ExtensionUtils().createSubjectKeyIdentifier(pair.getPublic()));
        } catch (CertIOException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        return new Issued(sign(builder, pair.getPrivate()), pair.getPrivate());
    }

    /** A serving certificate for {@code names}, signed by {@code ca}. */
    static Issued serving(Issued ca, String commonName, ServingNames names) {
        List<GeneralName> sans = new ArrayList<>();
        names.dnsNames().forEach(n -> sans.add(new GeneralName(GeneralName.dNSName, n)));
        names.ipAddresses().forEach(ip -> sans.add(new GeneralName(GeneralName.iPAddress, ip)));
        return leaf(ca, name(commonName, List.of()), KeyPurposeId.id_kp_serverAuth, sans, KeyType.EC_P256);
    }

    /** A client certificate for user {@code commonName} in groups {@code organizations}, with a key of {@code keys}. */
    static Issued client(Issued ca, String commonName, List<String> organizations, KeyType keys) {
        return leaf(ca, name(commonName, organizations), KeyPurposeId.id_kp_clientAuth, List.of(), keys);
    }

    private static Issued leaf(Issued ca, X500Name subject, KeyPurposeId purpose, List<GeneralName> sans,
                               KeyType kind) {
        KeyPair pair = newKeyPair(kind);
        X500Name issuer = X500Name.getInstance(ca.certificate().getSubjectX500Principal().getEncoded());
        X509v3CertificateBuilder builder = builder(issuer, subject, pair.getPublic(), LEAF_VALIDITY);
        try {
            JcaX509ExtensionUtils utils = new JcaX509ExtensionUtils();
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
            builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose));
            builder.addExtension(Extension.authorityKeyIdentifier, false,
                    utils.createAuthorityKeyIdentifier(ca.certificate()));
            if (!sans.isEmpty()) {
                builder.addExtension(Extension.subjectAlternativeName, false,
                        new GeneralNames(sans.toArray(GeneralName[]::new)));
            }
        } catch (CertIOException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        return new Issued(sign(builder, ca.key()), pair.getPrivate());
    }

    private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, PublicKey key,
                                                    Duration validity) {
        // Back-date by an hour so that clients with a slightly slow clock accept the certificate.
        Instant notBefore = Instant.now().minus(Duration.ofHours(1));
        return new JcaX509v3CertificateBuilder(issuer, new BigInteger(63, RANDOM).add(BigInteger.ONE),
                Date.from(notBefore), Date.from(notBefore.plus(validity)), subject, key);
    }

    private static X500Name name(String commonName, List<String> organizations) {
        X500NameBuilder builder = new X500NameBuilder(BCStyle.INSTANCE);
        organizations.forEach(o -> builder.addRDN(BCStyle.O, o));
        return builder.addRDN(BCStyle.CN, commonName).build();
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey signer) {
        try {
            String algorithm = signer.getAlgorithm().equals("RSA") ? "SHA256withRSA" : "SHA256withECDSA";
            return new JcaX509CertificateConverter()
                    .getCertificate(builder.build(new JcaContentSignerBuilder(algorithm).build(signer)));
        } catch (OperatorCreationException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign certificate", e);
        }
    }

    private static KeyPair newKeyPair(KeyType kind) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance(kind.algorithm);
            generator.initialize(kind.size, RANDOM);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}

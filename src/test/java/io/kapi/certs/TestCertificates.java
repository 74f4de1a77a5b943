package io.kapi.certs;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Certificates of any shape for tests: other CAs, expired, not yet valid, self-signed, any key purpose.
 * Their own keys are EC P-256 (quick to make); a {@link LocalPki} CA signs with its RSA key.
 */
public final class TestCertificates {

    private static final SecureRandom RANDOM = new SecureRandom();

    /** A certificate with its key. */
    public record Cert(X509Certificate certificate, PrivateKey key) {
    }

    private TestCertificates() {
    }

    /** The CA of a {@link LocalPki} in {@code dataDir}, with its key. */
    /** A server's TLS context presenting {@code serving} with its issuer {@code ca} behind it. */
    public static javax.net.ssl.SSLContext serverTls(Cert serving, Cert ca) throws Exception {
        java.security.KeyStore keys = java.security.KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry("serving", serving.key(), new char[0],
                new java.security.cert.Certificate[] {serving.certificate(), ca.certificate()});
        javax.net.ssl.KeyManagerFactory kmf = javax.net.ssl.KeyManagerFactory.getInstance(
                javax.net.ssl.KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, new char[0]);
        javax.net.ssl.SSLContext tls = javax.net.ssl.SSLContext.getInstance("TLS");
        tls.init(kmf.getKeyManagers(), null, null);
        return tls;
    }

    public static Cert caOf(LocalPki pki) throws Exception {
        return new Cert(pki.ca(), Pem.privateKey(Files.readString(pki.dataDir().resolve("ca.key"))));
    }

    /** A new self-signed CA. */
    public static Cert ca(String cn) throws Exception {
        KeyPair pair = pair();
        X500Name name = name(cn, List.of());
        return new Cert(sign(name, name, pair, pair.getPrivate(), Instant.now().minus(Duration.ofHours(1)),
                Instant.now().plus(Duration.ofDays(10)), true, null), pair.getPrivate());
    }

    /**
     * A leaf for user {@code cn} in {@code groups}, signed by {@code issuer} (null: self-signed), valid from
     * {@code notBefore} to {@code notAfter}, with extended key usage {@code purpose} (null: none).
     */
    public static Cert leaf(Cert issuer, String cn, List<String> groups, Instant notBefore, Instant notAfter,
                            KeyPurposeId purpose) throws Exception {
        KeyPair pair = pair();
        X500Name subject = name(cn, groups);
        X500Name issuerName = issuer == null ? subject
                : X500Name.getInstance(issuer.certificate().getSubjectX500Principal().getEncoded());
        PrivateKey signer = issuer == null ? pair.getPrivate() : issuer.key();
        return new Cert(sign(issuerName, subject, pair, signer, notBefore, notAfter, false, purpose), pair.getPrivate());
    }

    /** A CA signed by {@code issuer}. */
    public static Cert intermediate(Cert issuer, String cn) throws Exception {
        KeyPair pair = pair();
        X500Name issuerName = X500Name.getInstance(issuer.certificate().getSubjectX500Principal().getEncoded());
        return new Cert(sign(issuerName, name(cn, List.of()), pair, issuer.key(),
                Instant.now().minus(Duration.ofHours(1)), Instant.now().plus(Duration.ofDays(10)), true, null),
                pair.getPrivate());
    }

    /** Valid from an hour ago for a day. */
    public static Cert client(Cert issuer, String cn, List<String> groups) throws Exception {
        return leaf(issuer, cn, groups, Instant.now().minus(Duration.ofHours(1)), Instant.now().plus(Duration.ofDays(1)),
                KeyPurposeId.id_kp_clientAuth);
    }

    /** A CA and a serving certificate it signed for 127.0.0.1 and localhost: {@code [ca, serving]}. */
    public static List<Cert> loopbackServing() {
        CertificateIssuer.Issued ca = CertificateIssuer.selfSignedCa("test-serving-ca");
        CertificateIssuer.Issued serving = CertificateIssuer.serving(ca, "127.0.0.1",
                new ServingNames(List.of("localhost"), List.of("127.0.0.1")));
        return List.of(new Cert(ca.certificate(), ca.key()), new Cert(serving.certificate(), serving.key()));
    }

    /**
     * A serving certificate signed by {@code issuer} for IP address {@code ip} and the DNS names {@code dns},
     * valid from an hour ago for a day.
     */
    public static Cert servingForIp(Cert issuer, String ip, String... dns) throws Exception {
        KeyPair pair = pair();
        X500Name issuerName = X500Name.getInstance(issuer.certificate().getSubjectX500Principal().getEncoded());
        JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(issuerName,
                new BigInteger(63, RANDOM).add(BigInteger.ONE), Date.from(Instant.now().minus(Duration.ofHours(1))),
                Date.from(Instant.now().plus(Duration.ofDays(1))), name(ip, List.of()), pair.getPublic());
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
        b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
        b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
        List<org.bouncycastle.asn1.x509.GeneralName> names = new java.util.ArrayList<>();
        names.add(new org.bouncycastle.asn1.x509.GeneralName(org.bouncycastle.asn1.x509.GeneralName.iPAddress, ip));
        for (String d : dns) {
            names.add(new org.bouncycastle.asn1.x509.GeneralName(org.bouncycastle.asn1.x509.GeneralName.dNSName, d));
        }
        b.addExtension(Extension.subjectAlternativeName, false, new org.bouncycastle.asn1.x509.GeneralNames(
                names.toArray(org.bouncycastle.asn1.x509.GeneralName[]::new)));
        return new Cert(new JcaX509CertificateConverter().getCertificate(
                b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuer.key()))), pair.getPrivate());
    }

    /** Writes {@code cert} and its key as PEM files {@code name.crt} and {@code name.key} in {@code dir}. */
    public static void write(Cert cert, Path dir, String name) throws Exception {
        Files.writeString(dir.resolve(name + ".crt"), Pem.encode(cert.certificate()));
        Files.writeString(dir.resolve(name + ".key"), Pem.encode(cert.key()));
    }

    private static X509Certificate sign(X500Name issuer, X500Name subject, KeyPair pair, PrivateKey signer,
                                        Instant notBefore, Instant notAfter, boolean ca, KeyPurposeId purpose)
            throws Exception {
        JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(issuer, new BigInteger(63, RANDOM).add(BigInteger.ONE),
                Date.from(notBefore), Date.from(notAfter), subject, pair.getPublic());
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
        b.addExtension(Extension.keyUsage, true, new KeyUsage(ca ? KeyUsage.keyCertSign | KeyUsage.digitalSignature
                : KeyUsage.digitalSignature));
        if (purpose != null) {
            b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose));
        }
        return new JcaX509CertificateConverter().getCertificate(b.build(new JcaContentSignerBuilder(
                signer.getAlgorithm().equals("RSA") ? "SHA256withRSA" : "SHA256withECDSA").build(signer)));
    }

    private static X500Name name(String cn, List<String> groups) {
        X500NameBuilder builder = new X500NameBuilder(BCStyle.INSTANCE);
        groups.forEach(g -> builder.addRDN(BCStyle.O, g));
        return builder.addRDN(BCStyle.CN, cn).build();
    }

    private static KeyPair pair() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(256, RANDOM);
        return generator.generateKeyPair();
    }
}

package io.kapi.certs;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * Makes the certificates of a single-node cluster: a CA and leaves signed by it, encoded here as
 * RFC 5280 X.509 v3 ({@link Der}) and signed with the JDK. The CA and the serving certificate have
 * ECDSA P-256 keys (as k3s uses): made in a millisecond where an RSA key takes a hundred or more,
 * and only ever used for signatures every TLS client verifies. Client certificates get the key
 * type they are asked for ({@link KeyType}). The extensions are those Go's crypto/x509 and kubeadm
 * write: basic constraints and key usage (critical), extended key usage, the subject key
 * identifier of the CA and the authority key identifier of each leaf, and the serving names.
 */
final class CertificateIssuer {

    static final Duration CA_VALIDITY = Duration.ofDays(3650);
    static final Duration LEAF_VALIDITY = Duration.ofDays(365);
    static final String SUBJECT_KEY_IDENTIFIER = "2.5.29.14";
    static final String AUTHORITY_KEY_IDENTIFIER = "2.5.29.35";
    private static final String KEY_USAGE = "2.5.29.15";
    private static final String SUBJECT_ALT_NAME = "2.5.29.17";
    private static final String BASIC_CONSTRAINTS = "2.5.29.19";
    private static final String EXTENDED_KEY_USAGE = "2.5.29.37";
    private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";
    private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";
    private static final String COMMON_NAME = "2.5.4.3";
    private static final String ORGANIZATION = "2.5.4.10";
    private static final String ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";
    private static final String SHA256_WITH_RSA = "1.2.840.113549.1.1.11";
    /** Key usage bits, numbered from the first (most significant) bit: RFC 5280 4.2.1.3. */
    private static final int DIGITAL_SIGNATURE = 0;
    private static final int KEY_CERT_SIGN = 5;
    private static final int CRL_SIGN = 6;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A certificate with its key. */
    record Issued(X509Certificate certificate, PrivateKey key) {
    }

    private CertificateIssuer() {
    }

    static Issued selfSignedCa(String commonName) {
        KeyPair pair = newKeyPair(KeyType.EC_P256);
        byte[] subject = name(commonName, List.of());
        List<byte[]> extensions = List.of(
                extension(BASIC_CONSTRAINTS, true, Der.sequence(Der.bool(true))),
                extension(KEY_USAGE, true, keyUsage(DIGITAL_SIGNATURE, KEY_CERT_SIGN, CRL_SIGN)),
                extension(SUBJECT_KEY_IDENTIFIER, false, Der.octets(keyIdentifier(pair.getPublic()))));
        X509Certificate certificate = sign(subject, subject, pair.getPublic(), CA_VALIDITY, extensions, pair.getPrivate());
        return new Issued(certificate, pair.getPrivate());
    }

    /** A serving certificate for {@code names}, signed by {@code ca}. */
    static Issued serving(Issued ca, String commonName, ServingNames names) {
        List<byte[]> sans = new ArrayList<>();
        names.dnsNames().forEach(n -> sans.add(Der.implicit(2, n.getBytes(StandardCharsets.US_ASCII)))); // dNSName
        names.ipAddresses().forEach(ip -> sans.add(Der.implicit(7, InetAddress.ofLiteral(ip).getAddress()))); // iPAddress
        return leaf(ca, name(commonName, List.of()), SERVER_AUTH, sans, KeyType.EC_P256);
    }

    /** A client certificate for user {@code commonName} in groups {@code organizations}, with a key of {@code keys}. */
    static Issued client(Issued ca, String commonName, List<String> organizations, KeyType keys) {
        return leaf(ca, name(commonName, organizations), CLIENT_AUTH, List.of(), keys);
    }

    private static Issued leaf(Issued ca, byte[] subject, String purpose, List<byte[]> sans, KeyType kind) {
        KeyPair pair = newKeyPair(kind);
        List<byte[]> extensions = new ArrayList<>(List.of(
                extension(BASIC_CONSTRAINTS, true, Der.sequence()),
                extension(KEY_USAGE, true, keyUsage(DIGITAL_SIGNATURE)),
                extension(EXTENDED_KEY_USAGE, false, Der.sequence(Der.oid(purpose))),
                extension(AUTHORITY_KEY_IDENTIFIER, false, Der.sequence(Der.implicit(0, keyIdentifierOf(ca.certificate()))))));
        if (!sans.isEmpty()) {
            extensions.add(extension(SUBJECT_ALT_NAME, false, Der.sequence(sans)));
        }
        byte[] issuer = ca.certificate().getSubjectX500Principal().getEncoded();
        X509Certificate certificate = sign(issuer, subject, pair.getPublic(), LEAF_VALIDITY, extensions, ca.key());
        return new Issued(certificate, pair.getPrivate());
    }

    /** TBSCertificate, signed, then read back by the JDK's certificate factory. */
    private static X509Certificate sign(byte[] issuer, byte[] subject, PublicKey key, Duration validity,
                                        List<byte[]> extensions, PrivateKey signer) {
        // Back-dated by an hour so that clients with a slightly slow clock accept the certificate.
        Instant notBefore = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(Duration.ofHours(1));
        boolean rsa = signer.getAlgorithm().equals("RSA");
        byte[] algorithm = rsa ? Der.sequence(Der.oid(SHA256_WITH_RSA), Der.nul()) : Der.sequence(Der.oid(ECDSA_WITH_SHA256));
        byte[] tbs = Der.sequence(
                Der.explicit(0, Der.integer(BigInteger.TWO)), // v3
                Der.integer(new BigInteger(63, RANDOM).add(BigInteger.ONE)),
                algorithm,
                issuer,
                Der.sequence(Der.time(notBefore), Der.time(notBefore.plus(validity))),
                subject,
                key.getEncoded(),
                Der.explicit(3, Der.sequence(extensions)));
        try {
            Signature signature = Signature.getInstance(rsa ? "SHA256withRSA" : "SHA256withECDSA");
            signature.initSign(signer, RANDOM);
            signature.update(tbs);
            byte[] certificate = Der.sequence(tbs, algorithm, Der.bits(signature.sign()));
            return (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(certificate));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign certificate", e);
        }
    }

    /** A distinguished name of the organizations, then the common name, each its own RDN (as Go orders them). */
    private static byte[] name(String commonName, List<String> organizations) {
        List<byte[]> rdns = new ArrayList<>();
        organizations.forEach(o -> rdns.add(Der.set(Der.sequence(Der.oid(ORGANIZATION), Der.utf8(o)))));
        rdns.add(Der.set(Der.sequence(Der.oid(COMMON_NAME), Der.utf8(commonName))));
        return Der.sequence(rdns);
    }

    private static byte[] extension(String oid, boolean critical, byte[] value) {
        return critical ? Der.sequence(Der.oid(oid), Der.bool(true), Der.octets(value))
                : Der.sequence(Der.oid(oid), Der.octets(value));
    }

    /** A KeyUsage BIT STRING of the given bits, without trailing zero bits (DER's named bit list). */
    private static byte[] keyUsage(int... bits) {
        int value = 0;
        for (int bit : bits) {
            value |= 0x80 >> bit;
        }
        return Der.bits(new byte[] {(byte) value}, Integer.numberOfTrailingZeros(value));
    }

    /** RFC 5280's key identifier: the SHA-1 of the subjectPublicKey bits. */
    static byte[] keyIdentifier(PublicKey key) {
        byte[] bits = Der.read(key.getEncoded()).child(1).bitStringBytes();
        try {
            return MessageDigest.getInstance("SHA-1").digest(bits);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A CA's subject key identifier, or the one RFC 5280 derives from its key when it has none. */
    static byte[] keyIdentifierOf(X509Certificate ca) {
        byte[] extension = ca.getExtensionValue(SUBJECT_KEY_IDENTIFIER);
        if (extension == null) {
            return keyIdentifier(ca.getPublicKey());
        }
        return Der.read(Der.read(extension).expect(Der.OCTET_STRING).content()).expect(Der.OCTET_STRING).content();
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

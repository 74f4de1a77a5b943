package io.kapi.certs;

import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.PSSParameterSpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Map;

/**
 * A PKCS#10 certificate signing request's well-formedness and signature, as kube-apiserver checks the
 * {@code spec.request} of a CertificateSigningRequest ({@code ParseCSR}, then {@code CheckSignature}): the
 * first PEM block must be a {@code CERTIFICATE REQUEST}, its DER a CertificationRequest, and its signature
 * one its own public key makes over its request info. {@link #check} throws {@link IllegalArgumentException}
 * with Go's words where they are known.
 *
 * <pre>
 * CertificationRequest ::= SEQUENCE {
 *   certificationRequestInfo SEQUENCE { version INTEGER, subject Name, subjectPKInfo SEQUENCE, attributes [0] },
 *   signatureAlgorithm AlgorithmIdentifier,
 *   signature BIT STRING }
 * </pre>
 */
public final class CertificateRequest {

    private static final String RSA_PSS = "1.2.840.113549.1.1.10";

    /** Signature algorithm OID → (JCA signature name, Go's name of the key kind it verifies with). */
    private record Algorithm(String jca, String keyKind) {
    }

    // Go's CheckSignature of a CSR allows SHA-1 (allowSHA1 = true) and refuses MD5 as insecure.
    private static final Map<String, Algorithm> ALGORITHMS = Map.ofEntries(
            Map.entry("1.2.840.113549.1.1.5", new Algorithm("SHA1withRSA", "RSA")),
            Map.entry("1.2.840.113549.1.1.11", new Algorithm("SHA256withRSA", "RSA")),
            Map.entry("1.2.840.113549.1.1.12", new Algorithm("SHA384withRSA", "RSA")),
            Map.entry("1.2.840.113549.1.1.13", new Algorithm("SHA512withRSA", "RSA")),
            Map.entry(RSA_PSS, new Algorithm("RSASSA-PSS", "RSA")),
            Map.entry("1.2.840.10045.4.1", new Algorithm("SHA1withECDSA", "ECDSA")),
            Map.entry("1.2.840.10045.4.3.2", new Algorithm("SHA256withECDSA", "ECDSA")),
            Map.entry("1.2.840.10045.4.3.3", new Algorithm("SHA384withECDSA", "ECDSA")),
            Map.entry("1.2.840.10045.4.3.4", new Algorithm("SHA512withECDSA", "ECDSA")),
            Map.entry("1.3.101.112", new Algorithm("Ed25519", "Ed25519")));

    private static final Map<String, String> INSECURE = Map.of(
            "1.2.840.113549.1.1.4", "MD5-RSA",
            "1.2.840.113549.1.1.2", "MD2-RSA");

    /** A public key algorithm: its JCA key factory, Go's name of its kind. */
    private record Key(String factory, String kind) {
    }

    private static final Map<String, Key> KEYS = Map.of(
            "1.2.840.113549.1.1.1", new Key("RSA", "RSA"),
            "1.2.840.10045.2.1", new Key("EC", "ECDSA"),
            "1.3.101.112", new Key("Ed25519", "Ed25519"));

    private CertificateRequest() {
    }

    /** Throws {@link IllegalArgumentException} unless {@code pem} holds a well-formed, correctly signed CSR. */
    public static void check(String pem) {
        byte[] der = Pem.firstBlock(pem, "CERTIFICATE REQUEST");
        Der.Element info;
        String algorithm;
        Der.Element algorithmParameters;
        byte[] signature;
        Der.Element keyInfo;
        try {
            Der.Element request = Der.read(der).expect(Der.SEQUENCE);
            info = request.child(0).expect(Der.SEQUENCE);
            info.child(0).integer();
            info.child(1).expect(Der.SEQUENCE);
            keyInfo = info.child(2).expect(Der.SEQUENCE);
            Der.Element identifier = request.child(1).expect(Der.SEQUENCE);
            algorithm = identifier.child(0).oid();
            algorithmParameters = identifier.children().size() > 1 ? identifier.child(1) : null;
            signature = request.child(2).bitStringBytes();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("asn1: structure error: " + e.getMessage(), e);
        }
        if (INSECURE.containsKey(algorithm)) {
            throw new IllegalArgumentException("x509: cannot verify signature: insecure algorithm " + INSECURE.get(algorithm));
        }
        Algorithm known = ALGORITHMS.get(algorithm);
        Key key = KEYS.get(keyAlgorithm(keyInfo));
        if (known == null || key == null) {
            throw new IllegalArgumentException("x509: cannot verify signature: algorithm unimplemented");
        }
        if (!known.keyKind().equals(key.kind())) {
            throw new IllegalArgumentException("x509: signature algorithm specifies an %s public key, but have public key of type %s"
                    .formatted(known.keyKind(), goKeyType(key.kind())));
        }
        if (!verifies(known, algorithmParameters, publicKey(key.factory(), keyInfo), info.encoded(), signature)) {
            throw new IllegalArgumentException(switch (known.keyKind()) {
                case "RSA" -> "crypto/rsa: verification error";
                case "ECDSA" -> "x509: ECDSA verification failure";
                default -> "x509: Ed25519 verification failure";
            });
        }
    }

    private static String keyAlgorithm(Der.Element keyInfo) {
        try {
            return keyInfo.child(0).expect(Der.SEQUENCE).child(0).oid();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("asn1: structure error: " + e.getMessage(), e);
        }
    }

    private static PublicKey publicKey(String factory, Der.Element keyInfo) {
        try {
            return KeyFactory.getInstance(factory).generatePublic(new X509EncodedKeySpec(keyInfo.encoded()));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("x509: failed to parse public key: " + e.getMessage(), e);
        }
    }

    private static boolean verifies(Algorithm algorithm, Der.Element parameters, PublicKey key, byte[] signed, byte[] signature) {
        try {
            Signature verifier = Signature.getInstance(algorithm.jca());
            if (algorithm.jca().equals("RSASSA-PSS")) {
                if (parameters == null) {
                    throw new IllegalArgumentException("x509: invalid RSASSA-PSS parameters");
                }
                AlgorithmParameters pss = AlgorithmParameters.getInstance("RSASSA-PSS");
                pss.init(parameters.encoded());
                verifier.setParameter(pss.getParameterSpec(PSSParameterSpec.class));
            }
            verifier.initVerify(key);
            verifier.update(signed);
            return verifier.verify(signature);
        } catch (GeneralSecurityException | java.io.IOException e) {
            return false; // a signature that does not decode does not verify
        }
    }

    private static String goKeyType(String kind) {
        return switch (kind) {
            case "RSA" -> "*rsa.PublicKey";
            case "ECDSA" -> "*ecdsa.PublicKey";
            default -> "ed25519.PublicKey";
        };
    }
}

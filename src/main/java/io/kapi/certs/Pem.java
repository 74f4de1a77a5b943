package io.kapi.certs;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * PEM text to and from certificates and keys, with the JDK's certificate and key factories. Keys are
 * read in every form kubeadm, openssl and cert-manager write: PKCS#1 ({@code RSA PRIVATE KEY}), SEC1
 * ({@code EC PRIVATE KEY}, its curve named in it or in a leading {@code EC PARAMETERS} block) and
 * unencrypted PKCS#8 ({@code PRIVATE KEY}); encrypted keys are refused.
 */
public final class Pem {

    private static final String RSA = "1.2.840.113549.1.1.1";
    private static final String EC = "1.2.840.10045.2.1";
    /** The JCA key factory of each key algorithm a PKCS#8 or SubjectPublicKeyInfo may name. */
    private static final Map<String, String> KEY_FACTORIES = Map.of(
            RSA, "RSA",
            "1.2.840.113549.1.1.10", "RSASSA-PSS",
            EC, "EC",
            "1.3.101.112", "Ed25519",
            "1.3.101.113", "Ed448",
            "1.3.101.110", "X25519",
            "1.3.101.111", "X448");

    private Pem() {
    }

    /**
     * One {@code -----BEGIN label-----} block: its label, whether its headers say it is encrypted, whether it
     * has headers at all, its bytes.
     */
    private record Block(String label, boolean encrypted, boolean headers, byte[] bytes) {
    }

    /** All certificates in {@code pem}, in order; throws if there is none. */
    public static List<X509Certificate> certificates(String pem) {
        List<X509Certificate> certs = new ArrayList<>();
        try {
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            for (Block block : blocks(pem)) {
                if (block.label().equals("CERTIFICATE")) {
                    certs.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(block.bytes())));
                }
            }
        } catch (CertificateException e) {
            throw new IllegalArgumentException("not a PEM certificate: " + e.getMessage(), e);
        }
        if (certs.isEmpty()) {
            throw new IllegalArgumentException("no PEM certificate found");
        }
        return List.copyOf(certs);
    }

    /**
     * Why {@code pem} is not a certificate chain as a CertificateSigningRequest's {@code status.certificate} must be
     * (kube's {@code validateCertificate}): only {@code CERTIFICATE} blocks without headers, each parsing, at
     * least one; null if it is one.
     */
    public static String certificateChainProblem(String pem) {
        List<Block> blocks;
        try {
            blocks = blocks(pem);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        if (blocks.isEmpty()) {
            return "must contain at least one CERTIFICATE PEM block";
        }
        try {
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            for (Block block : blocks) {
                if (!block.label().equals("CERTIFICATE")) {
                    return "only CERTIFICATE PEM blocks are allowed, found \"" + block.label() + "\"";
                }
                if (block.headers()) {
                    return "no PEM block headers are permitted";
                }
                factory.generateCertificate(new ByteArrayInputStream(block.bytes()));
            }
        } catch (CertificateException e) {
            return "x509: malformed certificate: " + e.getMessage();
        }
        return null;
    }

    /**
     * The bytes of the first block of {@code pem}, which must be a {@code label} block, as kube's
     * {@code ParseCSR} takes a CSR: throws {@code PEM block type must be <label>} otherwise.
     */
    static byte[] firstBlock(String pem, String label) {
        List<Block> blocks = blocks(pem);
        if (blocks.isEmpty() || !blocks.getFirst().label().equals(label)) {
            throw new IllegalArgumentException("PEM block type must be " + label);
        }
        return blocks.getFirst().bytes();
    }

    /** The first private key in {@code pem}; throws if there is none (or it is encrypted). */
    public static PrivateKey privateKey(String pem) {
        String curve = null;
        try {
            for (Block block : blocks(pem)) {
                if (block.encrypted()) {
                    continue;
                }
                switch (block.label()) {
                    case "EC PARAMETERS" -> curve = Der.read(block.bytes()).oid();
                    case "RSA PRIVATE KEY" -> {
                        return rsaPrivate(block.bytes());
                    }
                    case "EC PRIVATE KEY" -> {
                        return ecPrivate(block.bytes(), curve);
                    }
                    case "PRIVATE KEY" -> {
                        return pkcs8(block.bytes());
                    }
                    default -> { }
                }
            }
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not a PEM private key: " + e.getMessage(), e);
        }
        throw new IllegalArgumentException("no unencrypted PEM private key found");
    }

    /**
     * Every public key in {@code pem}, as kube's {@code keyutil.ParsePublicKeysPEM} reads
     * {@code --service-account-key-file}: public keys ({@code PUBLIC KEY}, {@code RSA PUBLIC KEY}),
     * the public half of private keys, and the keys of certificates. Throws if there is none.
     */
    public static List<PublicKey> publicKeys(String pem) {
        List<PublicKey> keys = new ArrayList<>();
        String curve = null;
        try {
            CertificateFactory certificates = CertificateFactory.getInstance("X.509");
            for (Block block : blocks(pem)) {
                if (block.encrypted()) {
                    continue;
                }
                switch (block.label()) {
                    case "PUBLIC KEY" -> keys.add(subjectPublicKey(block.bytes()));
                    case "RSA PUBLIC KEY" -> keys.add(KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(
                            Der.sequence(Der.sequence(Der.oid(RSA), Der.nul()), Der.bits(block.bytes())))));
                    case "CERTIFICATE" -> keys.add(certificates.generateCertificate(
                            new ByteArrayInputStream(block.bytes())).getPublicKey());
                    case "EC PARAMETERS" -> curve = Der.read(block.bytes()).oid();
                    case "RSA PRIVATE KEY" -> keys.add(publicOf(rsaPrivate(block.bytes())));
                    case "EC PRIVATE KEY" -> keys.add(ecPublic(block.bytes(), curve));
                    case "PRIVATE KEY" -> keys.add(publicOf(pkcs8(block.bytes())));
                    default -> { }
                }
            }
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not a PEM public key: " + e.getMessage(), e);
        }
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("no PEM public key found");
        }
        return List.copyOf(keys);
    }

    /**
     * PEM text of a certificate, a public key ({@code PUBLIC KEY}), or a private key: RSA keys as
     * PKCS#1 ({@code RSA PRIVATE KEY}), as kubeadm writes them and every client library reads them;
     * other keys as unencrypted PKCS#8 ({@code PRIVATE KEY}).
     */
    public static String encode(Object certificateOrKey) {
        return switch (certificateOrKey) {
            case X509Certificate certificate -> {
                try {
                    yield block("CERTIFICATE", certificate.getEncoded());
                } catch (CertificateException e) {
                    throw new IllegalArgumentException("cannot encode certificate: " + e.getMessage(), e);
                }
            }
            case PrivateKey key when key.getAlgorithm().equals("RSA") ->
                    block("RSA PRIVATE KEY", Der.read(key.getEncoded()).child(2).expect(Der.OCTET_STRING).content());
            case PrivateKey key -> block("PRIVATE KEY", key.getEncoded());
            case PublicKey key -> block("PUBLIC KEY", key.getEncoded());
            default -> throw new IllegalArgumentException("cannot write a " + certificateOrKey.getClass().getName() + " as PEM");
        };
    }

    /**
     * An EC private key as SEC1 PEM ({@code EC PRIVATE KEY}) carrying its named curve and public point,
     * as {@code openssl ecparam -genkey} writes it; Go's {@code x509.ParseECPrivateKey} needs the curve.
     */
    public static String encodeSec1(ECPrivateKey key, PublicKey publicKey) {
        Der.Element info = Der.read(publicKey.getEncoded());
        String curve = info.child(0).child(1).oid();
        int size = (key.getParams().getOrder().bitLength() + 7) / 8;
        byte[] sec1 = Der.sequence(
                Der.integer(java.math.BigInteger.ONE),
                Der.octets(unsigned(key.getS(), size)),
                Der.explicit(0, Der.oid(curve)),
                Der.explicit(1, Der.bits(info.child(1).bitStringBytes())));
        return block("EC PRIVATE KEY", sec1);
    }

    private static PrivateKey rsaPrivate(byte[] pkcs1) throws GeneralSecurityException {
        return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(
                Der.sequence(Der.integer(java.math.BigInteger.ZERO), Der.sequence(Der.oid(RSA), Der.nul()), Der.octets(pkcs1))));
    }

    /** A SEC1 key: its curve is its own {@code [0]} parameters, else {@code curve} (an EC PARAMETERS block). */
    private static PrivateKey ecPrivate(byte[] sec1, String curve) throws GeneralSecurityException {
        return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(Der.sequence(
                Der.integer(java.math.BigInteger.ZERO), ecAlgorithm(sec1, curve), Der.octets(sec1))));
    }

    /** The public key of a SEC1 key: its {@code [1]} point when it has one, else derived as Go does. */
    private static PublicKey ecPublic(byte[] sec1, String curve) throws GeneralSecurityException {
        for (Der.Element part : Der.read(sec1).expect(Der.SEQUENCE).children()) {
            if (part.isContext(1)) {
                byte[] point = Der.read(part.content()).bitStringBytes();
                return KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(
                        Der.sequence(ecAlgorithm(sec1, curve), Der.bits(point))));
            }
        }
        return publicOf(ecPrivate(sec1, curve));
    }

    /** The AlgorithmIdentifier of a SEC1 key: id-ecPublicKey with the curve it names, else {@code curve}. */
    private static byte[] ecAlgorithm(byte[] sec1, String curve) throws GeneralSecurityException {
        String named = curve;
        for (Der.Element part : Der.read(sec1).expect(Der.SEQUENCE).children()) {
            if (part.isContext(0)) {
                named = Der.read(part.content()).oid();
            }
        }
        if (named == null) {
            throw new GeneralSecurityException("the EC private key names no curve");
        }
        return Der.sequence(Der.oid(EC), Der.oid(named));
    }

    private static PrivateKey pkcs8(byte[] pkcs8) throws GeneralSecurityException {
        String algorithm = Der.read(pkcs8).expect(Der.SEQUENCE).child(1).child(0).oid();
        return KeyFactory.getInstance(keyFactory(algorithm)).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
    }

    private static PublicKey subjectPublicKey(byte[] spki) throws GeneralSecurityException {
        String algorithm = Der.read(spki).expect(Der.SEQUENCE).child(0).child(0).oid();
        return KeyFactory.getInstance(keyFactory(algorithm)).generatePublic(new X509EncodedKeySpec(spki));
    }

    private static String keyFactory(String algorithm) throws GeneralSecurityException {
        String factory = KEY_FACTORIES.get(algorithm);
        if (factory == null) {
            throw new GeneralSecurityException("unknown key algorithm " + algorithm);
        }
        return factory;
    }

    /**
     * The public half of a private key, as Go's {@code crypto.Signer.Public} gives it: for RSA from the
     * modulus and exponent, for EC the point {@code d·G} of the key's curve.
     */
    private static PublicKey publicOf(PrivateKey key) throws GeneralSecurityException {
        if (key instanceof RSAPrivateCrtKey rsa) {
            return KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(rsa.getModulus(), rsa.getPublicExponent()));
        }
        if (key instanceof ECPrivateKey ec) {
            return KeyFactory.getInstance("EC").generatePublic(EcPoints.publicKeySpec(ec));
        }
        throw new GeneralSecurityException("cannot derive the public key of a " + key.getAlgorithm()
                + " private key; give its public key");
    }

    private static byte[] unsigned(java.math.BigInteger value, int size) {
        byte[] bytes = value.toByteArray();
        byte[] fixed = new byte[size];
        int copy = Math.min(bytes.length, size);
        System.arraycopy(bytes, bytes.length - copy, fixed, size - copy, copy);
        return fixed;
    }

    /**
     * The blocks of {@code pem}, as Go's {@code pem.Decode} finds them: text outside blocks is ignored,
     * headers ({@code Proc-Type: 4,ENCRYPTED}) end at a blank line, the body is base64.
     */
    private static List<Block> blocks(String pem) {
        List<Block> blocks = new ArrayList<>();
        String[] lines = pem.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (!line.startsWith("-----BEGIN ") || !line.endsWith("-----") || line.length() < 16) {
                continue;
            }
            String label = line.substring(11, line.length() - 5);
            String end = "-----END " + label + "-----";
            StringBuilder body = new StringBuilder();
            boolean encrypted = false;
            boolean headers = false;
            int j = i + 1;
            for (; j < lines.length && !lines[j].strip().equals(end); j++) {
                String text = lines[j].strip();
                if (text.contains(":")) {
                    encrypted |= text.startsWith("Proc-Type:") && text.contains("ENCRYPTED");
                    headers = true;
                } else {
                    body.append(text);
                }
            }
            if (j == lines.length) {
                throw new IllegalArgumentException("PEM block " + label + " has no END line");
            }
            try {
                blocks.add(new Block(label, encrypted || label.startsWith("ENCRYPTED"), headers, Base64.getDecoder().decode(body.toString())));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("PEM block " + label + " is not base64: " + e.getMessage(), e);
            }
            i = j;
        }
        return blocks;
    }

    private static String block(String label, byte[] bytes) {
        return "-----BEGIN " + label + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(bytes)
                + "\n-----END " + label + "-----\n";
    }
}

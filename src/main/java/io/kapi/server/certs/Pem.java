package io.kapi.server.certs;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;

/**
 * PEM text to and from certificates and private keys. Keys are read in every form kubeadm, openssl
 * and cert-manager write: PKCS#1 ({@code RSA PRIVATE KEY}), SEC1 ({@code EC PRIVATE KEY}, with or
 * without a leading {@code EC PARAMETERS} block) and unencrypted PKCS#8 ({@code PRIVATE KEY}).
 */
public final class Pem {

    private Pem() {
    }

    /** All certificates in {@code pem}, in order; throws if there is none. */
    public static List<X509Certificate> certificates(String pem) {
        List<X509Certificate> certs = new ArrayList<>();
        JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
                if (o instanceof X509CertificateHolder holder) {
                    certs.add(converter.getCertificate(holder));
                }
            }
        } catch (IOException | CertificateException e) {
            throw new IllegalArgumentException("not a PEM certificate: " + e.getMessage(), e);
        }
        if (certs.isEmpty()) {
            throw new IllegalArgumentException("no PEM certificate found");
        }
        return List.copyOf(certs);
    }

    /** The first private key in {@code pem}; throws if there is none (or it is encrypted). */
    public static PrivateKey privateKey(String pem) {
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
                if (o instanceof PEMKeyPair pair) {
                    return fromKeyPair(converter, pair);
                }
                if (o instanceof PrivateKeyInfo info) {
                    return converter.getPrivateKey(info);
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("not a PEM private key: " + e.getMessage(), e);
        }
        throw new IllegalArgumentException("no unencrypted PEM private key found");
    }

    /**
     * Every public key in {@code pem}, as kube's {@code keyutil.ParsePublicKeysPEM} reads
     * {@code --service-account-key-file}: public keys ({@code PUBLIC KEY}, {@code RSA PUBLIC KEY}),
     * the public half of private keys, and the keys of certificates. Throws if there is none.
     */
    public static List<java.security.PublicKey> publicKeys(String pem) {
        List<java.security.PublicKey> keys = new ArrayList<>();
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
                switch (o) {
                    case org.bouncycastle.asn1.x509.SubjectPublicKeyInfo info -> keys.add(converter.getPublicKey(info));
                    case PEMKeyPair pair when pair.getPublicKeyInfo() != null ->
                            keys.add(converter.getPublicKey(pair.getPublicKeyInfo()));
                    case PrivateKeyInfo info -> keys.add(publicOf(converter.getPrivateKey(info)));
                    case X509CertificateHolder holder -> keys.add(converter.getPublicKey(holder.getSubjectPublicKeyInfo()));
                    default -> { }
                }
            }
        } catch (IOException | java.security.GeneralSecurityException e) {
            throw new IllegalArgumentException("not a PEM public key: " + e.getMessage(), e);
        }
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("no PEM public key found");
        }
        return List.copyOf(keys);
    }

    /**
     * The public half of a private key, as Go's {@code crypto.Signer.Public} gives it: for RSA from the
     * modulus and exponent, for EC the point {@code d·G} of the key's curve (PKCS#8 carries no public
     * point that the JDK exposes).
     */
    private static java.security.PublicKey publicOf(PrivateKey key) throws java.security.GeneralSecurityException {
        if (key instanceof java.security.interfaces.RSAPrivateCrtKey rsa) {
            return java.security.KeyFactory.getInstance("RSA").generatePublic(
                    new java.security.spec.RSAPublicKeySpec(rsa.getModulus(), rsa.getPublicExponent()));
        }
        if (key instanceof java.security.interfaces.ECPrivateKey ec) {
            var point = org.bouncycastle.jcajce.provider.asymmetric.util.EC5Util.convertSpec(ec.getParams())
                    .getG().multiply(ec.getS()).normalize();
            return java.security.KeyFactory.getInstance("EC").generatePublic(new java.security.spec.ECPublicKeySpec(
                    new java.security.spec.ECPoint(point.getAffineXCoord().toBigInteger(),
                            point.getAffineYCoord().toBigInteger()), ec.getParams()));
        }
        throw new java.security.GeneralSecurityException("cannot derive the public key of a " + key.getAlgorithm()
                + " PKCS#8 key; give its public key");
    }

    /**
     * The private key of a PKCS#1 or SEC1 block. A SEC1 key may omit its public key, or its curve
     * (then only the public key names it), so try the private part alone first.
     */
    private static PrivateKey fromKeyPair(JcaPEMKeyConverter converter, PEMKeyPair pair) throws IOException {
        try {
            return converter.getPrivateKey(pair.getPrivateKeyInfo());
        } catch (IOException e) {
            if (pair.getPublicKeyInfo() == null) {
                throw e;
            }
            return converter.getPrivateKey(new PrivateKeyInfo(pair.getPublicKeyInfo().getAlgorithm(),
                    pair.getPrivateKeyInfo().parsePrivateKey()));
        }
    }

    /**
     * PEM text of a certificate, or of a private key: RSA keys as PKCS#1 ({@code RSA PRIVATE KEY}),
     * as kubeadm writes them and every client library reads them; other keys as unencrypted PKCS#8.
     */
    public static String encode(Object certificateOrKey) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            if (certificateOrKey instanceof PrivateKey key && !key.getAlgorithm().equals("RSA")) {
                writer.writeObject(new JcaPKCS8Generator(key, null));
            } else {
                writer.writeObject(certificateOrKey);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /**
     * An EC private key as SEC1 PEM ({@code EC PRIVATE KEY}) carrying its named curve and public point,
     * as {@code openssl ecparam -genkey} writes it; Go's {@code x509.ParseECPrivateKey} needs the curve.
     */
    public static String encodeSec1(java.security.interfaces.ECPrivateKey key, java.security.PublicKey publicKey) {
        org.bouncycastle.asn1.x509.SubjectPublicKeyInfo info =
                org.bouncycastle.asn1.x509.SubjectPublicKeyInfo.getInstance(publicKey.getEncoded());
        var sec1 = new org.bouncycastle.asn1.sec.ECPrivateKey(key.getParams().getOrder().bitLength(), key.getS(),
                info.getPublicKeyData(), info.getAlgorithm().getParameters());
        StringWriter out = new StringWriter();
        try (org.bouncycastle.util.io.pem.PemWriter writer = new org.bouncycastle.util.io.pem.PemWriter(out)) {
            writer.writeObject(new org.bouncycastle.util.io.pem.PemObject("EC PRIVATE KEY", sec1.getEncoded()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }
}

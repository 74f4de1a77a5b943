package io.kapi.apis.subresources;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import io.kapi.certs.Pem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The key service-account tokens are signed with (kube-apiserver's
 * {@code --service-account-signing-key-file}): an ECDSA P-256 key (ES256 tokens), generated once.
 * With a data directory it lives in {@code {dataDir}/sa.key} (PKCS#8 PEM, owner-only) with its
 * public half in {@code sa.pub}, the pair kube-controller-manager's
 * {@code --service-account-private-key-file} and kube-apiserver's {@code --service-account-key-file}
 * read; a data directory made by an earlier Kapi holds an RSA key, which is read and kept (RS256).
 * Without a data directory the key lives for the process. The key id is kube-apiserver's: the
 * unpadded base64url SHA-256 of the public key's DER form.
 */
public final class ServiceAccountKeys {

    public static final String PRIVATE_FILE = "sa.key";
    public static final String PUBLIC_FILE = "sa.pub";

    /** The curves tokens are signed on, with their algorithms. */
    private static final Map<Curve, JWSAlgorithm> SIGNING_CURVES =
            Map.of(Curve.P_256, JWSAlgorithm.ES256, Curve.P_384, JWSAlgorithm.ES384, Curve.P_521, JWSAlgorithm.ES512);

    private final PublicKey publicKey;
    private final PrivateKey privateKey;
    private final String keyId;
    private final JWSAlgorithm algorithm;

    private ServiceAccountKeys(PublicKey publicKey, PrivateKey privateKey) {
        this.publicKey = publicKey;
        this.privateKey = privateKey;
        this.keyId = keyId(publicKey);
        this.algorithm = publicKey instanceof ECPublicKey ec ? Objects.requireNonNull(ecAlgorithm(ec.getParams()),
                "an EC service account key on a curve tokens are not signed on") : JWSAlgorithm.RS256;
    }

    /** The algorithm of an EC key with {@code params}, or null when tokens are not signed on its curve. */
    private static JWSAlgorithm ecAlgorithm(ECParameterSpec params) {
        Curve curve = Curve.forECParameterSpec(params);
        return curve == null ? null : SIGNING_CURVES.get(curve);
    }

    /**
     * The key of {@code --service-account-signing-key-file}: an RSA (RS256) or ECDSA P-256, P-384 or P-521
     * (ES256, ES384, ES512) private key in any PEM form; the public half is read from it (SEC1 EC) or
     * derived from it. Another EC curve is refused here, as no token could be signed with it.
     */
    public static ServiceAccountKeys fromFile(Path file) {
        String pem;
        try {
            pem = Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read --service-account-signing-key-file " + file, e);
        }
        PrivateKey key = Pem.privateKey(pem);
        List<PublicKey> pub = Pem.publicKeys(pem);
        if (!(key instanceof RSAPrivateCrtKey) && !(key instanceof ECPrivateKey)) {
            throw new IllegalArgumentException("--service-account-signing-key-file " + file + ": not an RSA or EC key");
        }
        if (key instanceof ECPrivateKey ec && ecAlgorithm(ec.getParams()) == null) {
            throw new IllegalArgumentException("--service-account-signing-key-file " + file
                    + ": an EC key must be on P-256, P-384 or P-521");
        }
        return new ServiceAccountKeys(pub.getFirst(), key);
    }

    /**
     * A key for this process only (memory storage, tests), made once per JVM on first use and shared
     * by every server in it that keeps no key on disk. The key is immutable; servers sharing it are
     * still separate (each has its own issuer check and its own service accounts).
     */
    public static ServiceAccountKeys ephemeral() {
        return Ephemeral.KEYS;
    }

    private static final class Ephemeral {
        static final ServiceAccountKeys KEYS = ephemeralEc();
    }

    private static ServiceAccountKeys ephemeralEc() {
        KeyPair pair = newEcKey();
        return new ServiceAccountKeys(pair.getPublic(), pair.getPrivate());
    }

    /**
     * A P-256 key pair. (An RSA 2048 key took a quarter of a second of a first start's CPU on its
     * critical path; P-256 takes a few milliseconds once the JDK's EC code has run, which the
     * certificates' keys have done by then.)
     */
    private static KeyPair newEcKey() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The key in {@code dir}, generated and written there on first use; read with its public half from
     * {@code sa.pub} (which PKCS#8 EC keys need), or derived when only {@code sa.key} is there.
     */
    public static ServiceAccountKeys inDirectory(Path dir) {
        Path file = dir.resolve(PRIVATE_FILE);
        Path publicFile = dir.resolve(PUBLIC_FILE);
        try {
            if (Files.exists(file)) {
                return Files.exists(publicFile)
                        ? new ServiceAccountKeys(Pem.publicKeys(Files.readString(publicFile)).getFirst(),
                                Pem.privateKey(Files.readString(file)))
                        : fromFile(file);
            }
            Files.createDirectories(dir);
            KeyPair pair = newEcKey();
            // the public half first: a key file is never there without it
            writeOwnerOnly(publicFile, Pem.encode(pair.getPublic()));
            writeOwnerOnly(file, Pem.encode(pair.getPrivate()));
            return new ServiceAccountKeys(pair.getPublic(), pair.getPrivate());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or write the service account key " + file, e);
        }
    }

    private static void writeOwnerOnly(Path file, String content) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, content, StandardCharsets.US_ASCII);
        try {
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: keep the default permissions
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
    }

    private static String keyId(PublicKey key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getEncoded());
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    public String keyId() {
        return keyId;
    }

    /** RS256 for an RSA key; for an EC key the ECDSA algorithm of its curve: ES256, ES384 or ES512. */
    public JWSAlgorithm algorithm() {
        return algorithm;
    }

    public JWSSigner signer() {
        try {
            return privateKey instanceof ECPrivateKey ec
                    ? new com.nimbusds.jose.crypto.ECDSASigner(ec) : new RSASSASigner(privateKey);
        } catch (com.nimbusds.jose.JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    public PublicKey publicKey() {
        return publicKey;
    }

    /**
     * The claims as they are, signed into a compact JWS with this key's algorithm and key id (what both
     * TokenRequest and the legacy token controller issue).
     *
     * @throws IllegalStateException when the key cannot sign
     */
    public String sign(com.fasterxml.jackson.databind.node.ObjectNode claims) {
        com.nimbusds.jose.JWSObject jwt = new com.nimbusds.jose.JWSObject(
                new com.nimbusds.jose.JWSHeader.Builder(algorithm()).keyID(keyId).build(),
                new com.nimbusds.jose.Payload(claims.toString()));
        try {
            jwt.sign(signer());
        } catch (com.nimbusds.jose.JOSEException e) {
            throw new IllegalStateException("failed to sign the service account token", e);
        }
        return jwt.serialize();
    }

    /** The public key as {@code /openid/v1/jwks} serves it: {@code {"keys":[{kty, use, kid, alg, ...}]}}. */
    public String publicJwks() {
        com.nimbusds.jose.jwk.JWK jwk = publicKey instanceof RSAPublicKey rsa
                ? new RSAKey.Builder(rsa).keyUse(KeyUse.SIGNATURE).keyID(keyId).algorithm(algorithm()).build()
                : new com.nimbusds.jose.jwk.ECKey.Builder(Curve.forECParameterSpec(((ECPublicKey) publicKey).getParams()),
                        (ECPublicKey) publicKey).keyUse(KeyUse.SIGNATURE).keyID(keyId).algorithm(algorithm()).build();
        return new JWKSet(jwk).toString(true);
    }
}

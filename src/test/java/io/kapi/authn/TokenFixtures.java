package io.kapi.authn;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jwt.SignedJWT;
import io.kapi.admission.ObjectLookup;
import io.kapi.endpoint.RestRequest;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.Json;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the authenticator tests share: signing keys, service-account tokens as the TokenRequest API and
 * the tokens controller write them (and forged ones), an in-memory object store, a settable clock and
 * requests carrying a credential.
 */
final class TokenFixtures {

    static final String ISSUER = "https://kubernetes.default.svc.cluster.local";

    private TokenFixtures() {
    }

    /** A new P-256 key pair. */
    static KeyPair ecKey() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code claims} signed ES256 with {@code key}. */
    static String sign(KeyPair key, ObjectNode claims) {
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.ES256), com.nimbusds.jwt.JWTClaimsSet.parse(
                    Json.MAPPER.writeValueAsString(claims)));
            jwt.sign(new ECDSASigner((ECPrivateKey) key.getPrivate()));
            return jwt.serialize();
        } catch (JOSEException | java.text.ParseException | com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An unsecured JWT ({@code alg: none}) of {@code claims}. */
    static String unsigned(ObjectNode claims) {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        return b64.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + b64.encodeToString(claims.toString().getBytes(StandardCharsets.UTF_8)) + ".";
    }

    /** {@code token} with its payload replaced by {@code claims}, the signature kept. */
    static String tampered(String token, ObjectNode claims) {
        String[] parts = token.split("\\.");
        return parts[0] + "." + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(claims.toString().getBytes(StandardCharsets.UTF_8)) + "." + parts[2];
    }

    /** The claims of a bound token of {@code namespace/account} (uid {@code uid}), valid for an hour from {@code now}. */
    static ObjectNode boundClaims(Instant now, String audience, String namespace, String account, String uid) {
        ObjectNode claims = Json.object();
        long t = now.getEpochSecond();
        claims.put("iss", ISSUER).put("sub", "system:serviceaccount:" + namespace + ":" + account)
                .put("exp", t + 3600).put("iat", t).put("nbf", t).put("jti", "jti-" + account);
        claims.putArray("aud").add(audience);
        ObjectNode k8s = claims.putObject("kubernetes.io");
        k8s.put("namespace", namespace);
        k8s.putObject("serviceaccount").put("name", account).put("uid", uid);
        return claims;
    }

    /** The claims the tokens controller signs for the legacy token of {@code secret}. */
    static ObjectNode legacyClaims(String namespace, String account, String uid, String secret) {
        ObjectNode claims = Json.object();
        claims.put("iss", ServiceAccountTokens.LEGACY_ISSUER)
                .put("kubernetes.io/serviceaccount/namespace", namespace)
                .put("kubernetes.io/serviceaccount/secret.name", secret)
                .put("kubernetes.io/serviceaccount/service-account.name", account)
                .put("kubernetes.io/serviceaccount/service-account.uid", uid)
                .put("sub", "system:serviceaccount:" + namespace + ":" + account);
        return claims;
    }

    /** A GET of {@code path} with {@code headers} (names lower-cased, as the server gives them). */
    static RestRequest request(String path, Map<String, String> headers) {
        Map<String, List<String>> lower = new java.util.LinkedHashMap<>();
        headers.forEach((k, v) -> lower.put(k.toLowerCase(java.util.Locale.ROOT), List.of(v)));
        return new RestRequest("GET", path, Map.of(), lower, new ByteArrayInputStream(new byte[0]), null);
    }

    static RestRequest bearer(String token) {
        return request("/api/v1/namespaces", Map.of("Authorization", "Bearer " + token));
    }

    /** Objects by resource, namespace and name: what the authenticators look up. */
    static final class Objects implements ObjectLookup {

        private final Map<String, ObjectNode> objects = new ConcurrentHashMap<>();

        /** Stores an object of {@code resource} with that name, namespace and uid; returns it to be changed. */
        ObjectNode put(String resource, String namespace, String name, String uid) {
            ObjectNode object = Json.object();
            object.putObject("metadata").put("name", name).put("namespace", namespace).put("uid", uid);
            objects.put(key(resource, namespace, name), object);
            return object;
        }

        void delete(String resource, String namespace, String name) {
            objects.remove(key(resource, namespace, name));
        }

        private static String key(String resource, String namespace, String name) {
            return resource + "/" + namespace + "/" + name;
        }

        @Override
        public Optional<ObjectNode> get(GroupVersionResource resource, String namespace, String name) {
            return Optional.ofNullable(objects.get(key(resource.resource(), namespace, name))).map(ObjectNode::deepCopy);
        }

        @Override
        public List<ObjectNode> list(GroupVersionResource resource, String namespace) {
            return List.of();
        }
    }

    /** A clock the test moves. */
    static final class SettableClock extends Clock {

        volatile Instant now;

        SettableClock(Instant now) {
            this.now = now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}

package io.kapi.authn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jwt.SignedJWT;
import io.kapi.admission.ObjectLookup;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.Json;
import io.kapi.user.UserInfo;
import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Service-account tokens, as kube's {@code serviceaccount} token authenticator: JWTs signed by one of the
 * service-account keys ({@code --service-account-key-file}, and the signing key's public half), either
 * <ul>
 *   <li>bound tokens ({@code TokenRequest}, {@code kubectl create token}): {@code iss} one of
 *       {@code --service-account-issuer}, an {@code aud} among the accepted audiences, within
 *       {@code nbf}/{@code exp} (60 s leeway), and the {@code kubernetes.io} claim naming the account and
 *       the object it is bound to; always looked up, as kube's validator: the account must exist with the
 *       token's uid, and so must the pod, secret or node it is bound to (a node only for a token bound to
 *       a node alone: a pod-bound token's node is information), none deleted more than 60 s ago; or</li>
 *   <li>legacy tokens ({@code iss: kubernetes/serviceaccount}) stored in a
 *       {@code kubernetes.io/service-account-token} Secret: with lookup ({@code --service-account-lookup},
 *       the default) the Secret must still exist, not be deleting, be of that type for that account and hold
 *       this very token, and the account must exist with the token's uid and not be deleting.</li>
 * </ul>
 * Revocation is immediate: the objects are read on every authentication (the watch cache's copy, storage's
 * when it has none, as kube's getter reads a lister then the API), and this authenticator is not behind the
 * token cache (kube caches its answers for 10 s; Kapi remembers only which tokens carry a valid signature,
 * the costly part, and checks times, audiences and objects each time). The user is
 * {@code system:serviceaccount:<ns>:<name>} in {@code system:serviceaccounts} and
 * {@code system:serviceaccounts:<ns>}, with kube's {@code authentication.kubernetes.io/*} extras.
 */
public final class ServiceAccountTokens implements TokenAuthenticator {

    static final String LEGACY_ISSUER = "kubernetes/serviceaccount";
    private static final String INVALID_SINCE = "kubernetes.io/legacy-token-invalid-since";
    private static final String ACCOUNT_NAME = "kubernetes.io/service-account.name";
    private static final String ACCOUNT_UID = "kubernetes.io/service-account.uid";
    static final int MAX_VERIFIED = 8192;
    private static final GroupVersionResource SECRETS = new GroupVersionResource("", "v1", "secrets");
    private static final GroupVersionResource ACCOUNTS = new GroupVersionResource("", "v1", "serviceaccounts");
    private static final Duration LEEWAY = Duration.ofSeconds(60);
    private static final String EXTRA = "authentication.kubernetes.io/";
    private static final System.Logger LOG = System.getLogger(ServiceAccountTokens.class.getName());

    private final List<JWSVerifier> verifiers;
    private final List<String> issuers;
    private final List<String> apiAudiences;
    private final ObjectLookup objects;
    private final boolean lookup;
    private final LegacyTokenUse legacyUse;
    private final Clock clock;
    /** The claims of tokens whose signature verified, by SHA-256 of the token; cleared when full. */
    private final Map<String, ObjectNode> verified = new ConcurrentHashMap<>();

    /**
     * @param apiAudiences the audiences accepted when the caller names none (kube: {@code --api-audiences},
     *                     defaulting to the issuers)
     * @param objects where accounts, secrets, pods and nodes are looked up
     * @param lookup whether legacy tokens are looked up (bound tokens always are)
     * @param legacyUse told of each use of a legacy token (with lookup)
     */
    public ServiceAccountTokens(List<PublicKey> keys, List<String> issuers, List<String> apiAudiences,
                                ObjectLookup objects, boolean lookup, LegacyTokenUse legacyUse, Clock clock) {
        this.verifiers = keys.stream().map(ServiceAccountTokens::verifier).toList();
        this.issuers = List.copyOf(issuers);
        this.apiAudiences = apiAudiences.isEmpty() ? List.copyOf(issuers) : List.copyOf(apiAudiences);
        this.objects = objects;
        this.lookup = lookup;
        this.legacyUse = legacyUse;
        this.clock = clock;
    }

    private static JWSVerifier verifier(PublicKey key) {
        try {
            return switch (key) {
                case RSAPublicKey rsa -> new RSASSAVerifier(rsa);
                case ECPublicKey ec -> new ECDSAVerifier(ec);
                default -> throw new IllegalArgumentException("unsupported service account key " + key.getAlgorithm());
            };
        } catch (JOSEException e) {
            throw new IllegalArgumentException("unusable service account key: " + e.getMessage(), e);
        }
    }

    @Override
    public Optional<Accepted> authenticate(String token, List<String> audiences) {
        ObjectNode claims = verifiedClaims(token);
        if (claims == null) {
            return Optional.empty();
        }
        try {
            if (claims.path("iss").asText().equals(LEGACY_ISSUER)) {
                // legacy tokens name no audience: kube takes them to be for the API's own
                List<String> shared = AudienceAgnostic.shared(apiAudiences, audiences);
                return shared.isEmpty() ? Optional.empty()
                        : legacy(token, claims).map(a -> new Accepted(a.user(), shared));
            }
            return bound(claims, audiences.isEmpty() ? apiAudiences : audiences);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "service account token refused: {0}", e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * The claims of a token of one of our issuers whose signature one of our keys verifies, or null. Remembered
     * (the keys do not change, so neither does the answer): the callers only read the claims.
     */
    private ObjectNode verifiedClaims(String token) {
        if (!CompactJws.isCompact(token)) {
            return null;
        }
        String key = TokenCache.digest(token, List.of());
        ObjectNode known = verified.get(key);
        if (known != null) {
            return known;
        }
        ObjectNode claims;
        try {
            SignedJWT jwt = SignedJWT.parse(token);
            String issuer = issuer(token);
            if (issuer == null || !(issuers.contains(issuer) || issuer.equals(LEGACY_ISSUER)) || !verified(jwt)) {
                return null;
            }
            claims = (ObjectNode) Json.MAPPER.readTree(jwt.getPayload().toString());
        } catch (ParseException | java.io.IOException | ClassCastException e) {
            return null;
        }
        if (verified.size() >= MAX_VERIFIED) {
            verified.clear();
        }
        verified.put(key, claims);
        return claims;
    }

    /** The unverified {@code iss} claim, to skip JWTs of other issuers cheaply; null when unreadable. */
    private static String issuer(String token) {
        String[] parts = token.split("\\.");
        try {
            JsonNode payload = Json.MAPPER.readTree(Base64.getUrlDecoder().decode(parts[1]));
            return payload.path("iss").isTextual() ? payload.path("iss").asText() : null;
        } catch (java.io.IOException | IllegalArgumentException e) {
            return null;
        }
    }

    private boolean verified(SignedJWT jwt) {
        for (JWSVerifier v : verifiers) {
            try {
                if (v.supportedJWSAlgorithms().contains(jwt.getHeader().getAlgorithm()) && jwt.verify(v)) {
                    return true;
                }
            } catch (JOSEException e) {
                // not this key
            }
        }
        return false;
    }

    private Optional<Accepted> bound(ObjectNode claims, List<String> accepted) {
        Instant now = clock.instant();
        if (!claims.path("exp").canConvertToLong()
                || !now.isBefore(Instant.ofEpochSecond(claims.path("exp").asLong()).plus(LEEWAY))
                || claims.path("nbf").canConvertToLong()
                && now.plus(LEEWAY).isBefore(Instant.ofEpochSecond(claims.path("nbf").asLong()))) {
            return Optional.empty();
        }
        List<String> aud = new ArrayList<>();
        JsonNode audNode = claims.path("aud");
        if (audNode.isTextual()) {
            aud.add(audNode.asText());
        } else {
            audNode.forEach(a -> aud.add(a.asText()));
        }
        List<String> matched = aud.stream().filter(accepted::contains).toList();
        if (matched.isEmpty()) {
            return Optional.empty();
        }
        JsonNode k8s = claims.path("kubernetes.io");
        String namespace = k8s.path("namespace").asText("");
        JsonNode account = k8s.path("serviceaccount");
        if (namespace.isEmpty() || account.path("name").asText("").isEmpty()) {
            return Optional.empty();
        }
        Instant invalidIfDeletedBefore = now.minus(LEEWAY);
        Map<String, List<String>> extra = new LinkedHashMap<>();
        if (!live("serviceaccounts", namespace, account, invalidIfDeletedBefore)) {
            return Optional.empty();
        }
        for (String kind : List.of("secret", "pod")) {
            JsonNode ref = k8s.path(kind);
            if (!ref.isMissingNode() && !live(kind + "s", namespace, ref, invalidIfDeletedBefore)) {
                return Optional.empty();
            }
        }
        JsonNode pod = k8s.path("pod");
        if (!pod.isMissingNode()) {
            extra.put(EXTRA + "pod-name", List.of(pod.path("name").asText()));
            extra.put(EXTRA + "pod-uid", List.of(pod.path("uid").asText()));
        }
        JsonNode node = k8s.path("node");
        if (!node.isMissingNode()) {
            // a pod-bound token's node is information only; a token bound to the node alone lives with it
            if (pod.isMissingNode() && !live("nodes", "", node, invalidIfDeletedBefore)) {
                return Optional.empty();
            }
            extra.put(EXTRA + "node-name", List.of(node.path("name").asText()));
            if (!node.path("uid").asText("").isEmpty()) {
                extra.put(EXTRA + "node-uid", List.of(node.path("uid").asText()));
            }
        }
        if (!claims.path("jti").asText("").isEmpty()) {
            extra.put(EXTRA + "credential-id", List.of("JTI=" + claims.path("jti").asText()));
        }
        return Optional.of(new Accepted(user(namespace, account.path("name").asText(), account.path("uid").asText(""),
                extra), matched));
    }

    /**
     * kube's legacy validator: the claims name the account (with its uid) and the Secret; with lookup the
     * Secret must still hold this token, not be deleting nor labelled {@code legacy-token-invalid-since}, and
     * (Kapi, beyond kube) still be the account's token Secret (its type and its account annotations), and the
     * account must exist with that uid and not be deleting. Each use is reported to the {@link LegacyTokenUse}.
     */
    private Optional<Accepted> legacy(String token, ObjectNode claims) {
        String namespace = claims.path("kubernetes.io/serviceaccount/namespace").asText("");
        String secretName = claims.path("kubernetes.io/serviceaccount/secret.name").asText("");
        String name = claims.path("kubernetes.io/serviceaccount/service-account.name").asText("");
        String uid = claims.path("kubernetes.io/serviceaccount/service-account.uid").asText("");
        if (namespace.isEmpty() || secretName.isEmpty() || name.isEmpty() || uid.isEmpty()
                || !claims.path("sub").asText().equals("system:serviceaccount:" + namespace + ":" + name)) {
            return Optional.empty();
        }
        if (lookup) {
            Optional<ObjectNode> secret = objects.cachedOrStored(SECRETS, namespace, secretName);
            if (secret.isEmpty() || deleting(secret.get()) || !TokenFile.sameSecret(storedToken(secret.get()), token)
                    || !tokenSecretOf(secret.get(), name, uid)) {
                return Optional.empty();
            }
            Optional<ObjectNode> account = objects.cachedOrStored(ACCOUNTS, namespace, name);
            if (account.isEmpty() || deleting(account.get()) || !uid.equals(uid(account.get()))) {
                return Optional.empty();
            }
            legacyUse.used(secret.get());
            if (!secret.get().path("metadata").path("labels").path(INVALID_SINCE).asText("").isEmpty()) {
                LOG.log(System.Logger.Level.DEBUG, "the token in secret {0}/{1} for service account {0}/{2} has been "
                        + "marked invalid", namespace, secretName, name);
                return Optional.empty();
            }
        }
        return Optional.of(new Accepted(user(namespace, name, uid, Map.of()), List.of()));
    }

    /** Whether {@code secret} is a service-account token Secret of account {@code name} (uid {@code uid}). */
    private static boolean tokenSecretOf(ObjectNode secret, String name, String uid) {
        JsonNode annotations = secret.path("metadata").path("annotations");
        String annotatedUid = annotations.path(ACCOUNT_UID).asText("");
        return secret.path("type").asText().equals("kubernetes.io/service-account-token")
                && annotations.path(ACCOUNT_NAME).asText("").equals(name)
                && (annotatedUid.isEmpty() || annotatedUid.equals(uid));
    }

    private static String storedToken(ObjectNode secret) {
        try {
            return new String(Base64.getDecoder().decode(secret.path("data").path("token").asText("")),
                    StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return "";
        }
    }

    /**
     * Whether the object a bound token's claim names ({@code name} and {@code uid}) still exists with that uid
     * and was not deleted before {@code invalidIfDeletedBefore} (a pod in its grace period, and up to 60 s
     * after, may still call), as kube's bound-token validator. A claim without a uid matches nothing.
     */
    private boolean live(String resource, String namespace, JsonNode ref, Instant invalidIfDeletedBefore) {
        String uid = ref.path("uid").asText("");
        Optional<ObjectNode> found = objects.cachedOrStored(new GroupVersionResource("", "v1", resource), namespace,
                ref.path("name").asText(""));
        return found.isPresent() && !uid.isEmpty() && uid.equals(uid(found.get()))
                && !deletedBefore(found.get(), invalidIfDeletedBefore);
    }

    private static String uid(ObjectNode object) {
        return object.path("metadata").path("uid").asText("");
    }

    private static boolean deletedBefore(ObjectNode object, Instant instant) {
        String ts = object.path("metadata").path("deletionTimestamp").asText("");
        try {
            return !ts.isEmpty() && Instant.parse(ts).isBefore(instant);
        } catch (java.time.format.DateTimeParseException e) {
            return true;
        }
    }

    private static boolean deleting(ObjectNode object) {
        JsonNode ts = object.path("metadata").path("deletionTimestamp");
        return !ts.isMissingNode() && !ts.isNull();
    }

    static UserInfo user(String namespace, String name, String uid, Map<String, List<String>> extra) {
        return new UserInfo("system:serviceaccount:" + namespace + ":" + name, uid,
                List.of("system:serviceaccounts", "system:serviceaccounts:" + namespace), extra);
    }
}

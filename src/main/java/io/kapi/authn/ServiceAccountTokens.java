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

/**
 * Service-account tokens, as kube's {@code serviceaccount} token authenticator: JWTs signed by one of the
 * service-account keys ({@code --service-account-key-file}, and the signing key's public half), either
 * <ul>
 *   <li>bound tokens ({@code TokenRequest}, {@code kubectl create token}): {@code iss} one of
 *       {@code --service-account-issuer}, an {@code aud} among the accepted audiences, within
 *       {@code nbf}/{@code exp} (60 s leeway), and the {@code kubernetes.io} claim naming the account and
 *       the object it is bound to; or</li>
 *   <li>legacy tokens ({@code iss: kubernetes/serviceaccount}) stored in a
 *       {@code kubernetes.io/service-account-token} Secret, which must still hold that token.</li>
 * </ul>
 * With lookup ({@code --service-account-lookup}, the default) the account must still exist with the
 * token's uid and not be deleted, and so must the bound pod, secret or node. The user is
 * {@code system:serviceaccount:<ns>:<name>} in {@code system:serviceaccounts} and
 * {@code system:serviceaccounts:<ns>}, with kube's {@code authentication.kubernetes.io/*} extras.
 */
public final class ServiceAccountTokens implements TokenAuthenticator {

    static final String LEGACY_ISSUER = "kubernetes/serviceaccount";
    private static final String INVALID_SINCE = "kubernetes.io/legacy-token-invalid-since";
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

    /**
     * @param apiAudiences the audiences accepted when the caller names none (kube: {@code --api-audiences},
     *                     defaulting to the issuers)
     * @param objects where accounts, secrets, pods and nodes are looked up
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
        if (token.chars().filter(c -> c == '.').count() != 2) {
            return Optional.empty();
        }
        ObjectNode claims;
        try {
            SignedJWT jwt = SignedJWT.parse(token);
            String issuer = issuer(token);
            if (issuer == null || !(issuers.contains(issuer) || issuer.equals(LEGACY_ISSUER)) || !verified(jwt)) {
                return Optional.empty();
            }
            claims = (ObjectNode) Json.MAPPER.readTree(jwt.getPayload().toString());
        } catch (ParseException | java.io.IOException | ClassCastException e) {
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
        Map<String, List<String>> extra = new LinkedHashMap<>();
        if (lookup && !exists("serviceaccounts", namespace, account)) {
            return Optional.empty();
        }
        for (String kind : List.of("pod", "secret")) {
            JsonNode ref = k8s.path(kind);
            if (!ref.isMissingNode()) {
                if (lookup && !exists(kind + "s", namespace, ref)) {
                    return Optional.empty();
                }
                if (kind.equals("pod")) {
                    extra.put(EXTRA + "pod-name", List.of(ref.path("name").asText()));
                    extra.put(EXTRA + "pod-uid", List.of(ref.path("uid").asText()));
                }
            }
        }
        JsonNode node = k8s.path("node");
        if (!node.isMissingNode()) {
            if (lookup && k8s.path("pod").isMissingNode() && !exists("nodes", "", node)) {
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
     * Secret must still hold this token, not be deleted nor labelled {@code legacy-token-invalid-since},
     * and the account must exist with that uid. Each use is reported to the {@link LegacyTokenUse}.
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
            Optional<ObjectNode> secret = objects.get(new GroupVersionResource("", "v1", "secrets"), namespace, secretName);
            if (secret.isEmpty() || deleting(secret.get()) || !TokenFile.sameSecret(storedToken(secret.get()), token)
                    || !exists("serviceaccounts", namespace, Json.object().put("name", name).put("uid", uid))) {
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

    private static String storedToken(ObjectNode secret) {
        try {
            return new String(Base64.getDecoder().decode(secret.path("data").path("token").asText("")),
                    StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return "";
        }
    }

    /**
     * Whether the object a bound token's claim names ({@code name}, optional {@code uid}) still exists and
     * its deletion time (a pod's grace period) has not passed, as kube's bound-token validator.
     */
    private boolean exists(String resource, String namespace, JsonNode ref) {
        Optional<ObjectNode> found = objects.get(new GroupVersionResource("", "v1", resource), namespace,
                ref.path("name").asText());
        if (found.isEmpty() || deletedBefore(found.get(), clock.instant())) {
            return false;
        }
        String uid = ref.path("uid").asText("");
        return uid.isEmpty() || uid.equals(found.get().path("metadata").path("uid").asText());
    }

    private static boolean deletedBefore(ObjectNode object, Instant now) {
        String ts = object.path("metadata").path("deletionTimestamp").asText("");
        try {
            return !ts.isEmpty() && !Instant.parse(ts).isAfter(now);
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

package io.kapi.authn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.factories.DefaultJWSVerifierFactory;
import com.nimbusds.jose.jwk.AsymmetricJWK;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jwt.SignedJWT;
import io.kapi.machinery.Json;
import io.kapi.machinery.cel.CelBudget;
import io.kapi.machinery.cel.CelValues;
import io.kapi.user.UserInfo;
import java.io.IOException;
import java.text.ParseException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Tokens of one OIDC issuer ({@code --oidc-*} or a {@code jwt} entry of {@code --authentication-config}),
 * as kube's {@code oidc} authenticator: a JWS signed with one of the issuer's keys (an accepted
 * algorithm), {@code iss} the issuer URL, an accepted {@code aud}, not expired ({@code exp}) nor early
 * ({@code nbf}); then the claim rules, the claim mappings (username, groups, uid, extra) and the user
 * rules. A token of another issuer is not looked at (its unverified {@code iss} says so).
 */
public final class JwtAuthenticator implements TokenAuthenticator {

    private static final System.Logger LOG = System.getLogger(JwtAuthenticator.class.getName());
    private final JwtIssuer issuer;
    private final IssuerKeys keys;
    private final Clock clock;

    public JwtAuthenticator(JwtIssuer issuer, Clock clock) {
        this.issuer = issuer;
        this.keys = new IssuerKeys(issuer, clock);
        this.clock = clock;
    }

    @Override
    public Optional<Accepted> authenticate(String token, List<String> audiences) {
        String[] parts = token.split("\\.", -1);
        if (!CompactJws.isCompact(token) || !issuer.url().equals(unverifiedIssuer(parts[1]))) {
            return Optional.empty();
        }
        try {
            SignedJWT jwt = SignedJWT.parse(token);
            if (!issuer.signingAlgs().contains(jwt.getHeader().getAlgorithm().getName()) || !verified(jwt)) {
                return Optional.empty();
            }
            ObjectNode claims = (ObjectNode) Json.MAPPER.readTree(jwt.getPayload().toString());
            return accept(claims, audiences);
        } catch (ParseException | IOException | ClassCastException e) {
            return Optional.empty();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "oidc: token of {0} refused: {1}", issuer.url(), e.getMessage());
            return Optional.empty();
        }
    }

    private static String unverifiedIssuer(String payload) {
        try {
            JsonNode claims = Json.MAPPER.readTree(Base64.getUrlDecoder().decode(payload));
            return claims.path("iss").asText(null);
        } catch (IOException | IllegalArgumentException e) {
            return null;
        }
    }

    private boolean verified(SignedJWT jwt) {
        DefaultJWSVerifierFactory factory = new DefaultJWSVerifierFactory();
        for (JWK jwk : keys.find(jwt.getHeader().getKeyID())) {
            try {
                if (jwk instanceof AsymmetricJWK asymmetric) {
                    JWSVerifier verifier = factory.createJWSVerifier(jwt.getHeader(), asymmetric.toPublicKey());
                    if (jwt.verify(verifier)) {
                        return true;
                    }
                }
            } catch (JOSEException e) {
                // not this key
            }
        }
        return false;
    }

    private Optional<Accepted> accept(ObjectNode claims, List<String> requested) {
        Instant now = clock.instant();
        if (!claims.path("exp").canConvertToLong() || !now.isBefore(Instant.ofEpochSecond(claims.path("exp").asLong()))) {
            return Optional.empty();
        }
        if (claims.path("nbf").canConvertToLong() && now.isBefore(Instant.ofEpochSecond(claims.path("nbf").asLong()))) {
            return Optional.empty();
        }
        List<String> aud = strings(claims.path("aud"));
        List<String> matched = aud.stream().filter(issuer.audiences()::contains).toList();
        if (matched.isEmpty()) {
            return Optional.empty();
        }
        for (JwtIssuer.ClaimRule rule : issuer.claimRules()) {
            if (!holds(rule, claims)) {
                return Optional.empty();
            }
        }
        UserInfo user = user(claims);
        if (user == null) {
            return Optional.empty();
        }
        ObjectNode userNode = userNode(user);
        for (JwtIssuer.UserRule rule : issuer.userRules()) {
            if (!Boolean.TRUE.equals(rule.expression().evaluate(Map.of("user", userNode), CelBudget.unlimited()))) {
                LOG.log(System.Logger.Level.DEBUG, "oidc: user rule failed: {0}", rule.message());
                return Optional.empty();
            }
        }
        return Optional.of(new Accepted(user, List.of())); // audience-agnostic: see AudienceAgnostic
    }

    private static boolean holds(JwtIssuer.ClaimRule rule, ObjectNode claims) {
        return switch (rule) {
            case JwtIssuer.RequiredClaim required -> claims.path(required.claim()).isTextual()
                    && claims.path(required.claim()).asText().equals(required.value());
            case JwtIssuer.ClaimExpression e -> Boolean.TRUE.equals(e.expression().evaluate(Map.of("claims", claims), CelBudget.unlimited()));
        };
    }

    /** The user the claims map to, or null when the username is missing or empty. */
    private UserInfo user(ObjectNode claims) {
        List<String> names = values(issuer.username(), claims, false);
        if (names.size() != 1 || names.getFirst().isEmpty()) {
            return null;
        }
        if (issuer.username() instanceof JwtIssuer.Claim c && c.claim().equals("email")
                && claims.has("email_verified") && !claims.path("email_verified").asBoolean(false)) {
            return null; // kube: an email that is not verified is no username
        }
        List<String> uid = values(issuer.uid(), claims, false);
        Map<String, List<String>> extra = new LinkedHashMap<>();
        for (JwtIssuer.Extra e : issuer.extra()) {
            List<String> v = strings(CelValues.toJson(e.value().evaluate(Map.of("claims", claims), CelBudget.unlimited())));
            if (!v.isEmpty()) {
                extra.put(e.key(), v);
            }
        }
        return new UserInfo(names.getFirst(), uid.isEmpty() ? "" : uid.getFirst(),
                values(issuer.groups(), claims, true), extra);
    }

    private static List<String> values(JwtIssuer.Mapping mapping, ObjectNode claims, boolean list) {
        return switch (mapping) {
            case JwtIssuer.None none -> List.of();
            case JwtIssuer.Claim c -> {
                JsonNode value = claims.path(c.claim());
                if (value.isMissingNode() || value.isNull() || !list && !value.isTextual()) {
                    yield List.of();
                }
                String prefix = c.prefix() == null ? "" : c.prefix();
                yield strings(value).stream().map(v -> prefix + v).toList();
            }
            case JwtIssuer.Expression e -> strings(CelValues.toJson(e.expression().evaluate(Map.of("claims", claims), CelBudget.unlimited())));
        };
    }

    private static List<String> strings(JsonNode node) {
        List<String> out = new ArrayList<>();
        if (node.isTextual()) {
            out.add(node.asText());
        } else if (node.isArray()) {
            node.forEach(n -> out.add(n.asText()));
        }
        return out;
    }

    private static ObjectNode userNode(UserInfo user) {
        ObjectNode node = Json.object();
        node.put("username", user.name());
        node.put("uid", user.uid());
        ArrayNode groups = node.putArray("groups");
        user.groups().forEach(groups::add);
        ObjectNode extra = node.putObject("extra");
        user.extra().forEach((k, v) -> {
            ArrayNode values = extra.putArray(k);
            v.forEach(values::add);
        });
        return node;
    }
}

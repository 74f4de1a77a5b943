package io.kapi.authn;

import io.kapi.machinery.cel.CelExpression;
import java.util.List;

/**
 * One JWT authenticator of {@code --authentication-config} (or of the {@code --oidc-*} flags), as
 * kube's {@code apiserver.JWTAuthenticator}: whose tokens ({@code issuer}), for whom ({@code audiences}),
 * how claims become a user, and what must hold of claims and user.
 *
 * @param url the issuer URL: the {@code iss} claim, and where discovery is fetched
 * @param discoveryUrl where {@code openid-configuration} is fetched instead, or null
 * @param caPem the CA bundle that verifies the issuer's TLS certificate, or null for the JDK's roots
 * @param audiences accepted {@code aud} values (any one suffices)
 * @param signingAlgs accepted JOSE algorithms
 */
public record JwtIssuer(String url, String discoveryUrl, String caPem, List<String> audiences,
                        List<String> signingAlgs, Mapping username, Mapping groups, Mapping uid, List<Extra> extra,
                        List<ClaimRule> claimRules, List<UserRule> userRules) {

    public JwtIssuer {
        audiences = List.copyOf(audiences);
        signingAlgs = List.copyOf(signingAlgs);
        extra = List.copyOf(extra);
        claimRules = List.copyOf(claimRules);
        userRules = List.copyOf(userRules);
    }

    /** How a claim becomes a value: a claim (with a prefix), or a CEL expression over {@code claims}. */
    public sealed interface Mapping {
    }

    /** The claim's value, {@code prefix} before it (each group's, for groups). */
    public record Claim(String claim, String prefix) implements Mapping {
    }

    /** A CEL expression over {@code claims}: a string (username, uid) or a string or list (groups). */
    public record Expression(CelExpression expression) implements Mapping {
    }

    /** No mapping (groups, uid). */
    public record None() implements Mapping {
    }

    /** An extra key and the CEL expression of its value (a string or list of strings). */
    public record Extra(String key, CelExpression value) {
    }

    /** A rule on claims: a claim's required value, or a CEL expression that must be true. */
    public sealed interface ClaimRule {
    }

    public record RequiredClaim(String claim, String value) implements ClaimRule {
    }

    public record ClaimExpression(CelExpression expression, String message) implements ClaimRule {
    }

    /** A CEL expression over {@code user} (username, uid, groups, extra) that must be true. */
    public record UserRule(CelExpression expression, String message) {
    }
}

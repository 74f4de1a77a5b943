package io.kapi.authn;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.certs.Pem;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.cel.CelEnvironment;
import io.kapi.machinery.cel.CelError;
import io.kapi.machinery.cel.CelExpression;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * One {@code jwt[i]} entry of an {@code AuthenticationConfiguration} made into a {@link JwtIssuer}, checked
 * as kube's {@code validateJWTAuthenticator}: the issuer (https URL without user, query or fragment, not a
 * service-account issuer; a distinct discovery URL; audiences with {@code MatchAny} for several; a
 * parsable CA), the claim validation rules, the claim mappings (claim with a prefix, or a CEL expression
 * over {@code claims}; extra keys domain-prefixed, lower case, not kube's) and the user
 * validation rules (CEL over {@code user}). Problems are collected as kube's field errors.
 */
final class JwtIssuerParser {

    private static final CelEnvironment CLAIMS = CelEnvironment.builder().map("claims").build();
    private static final CelEnvironment USER = CelEnvironment.builder().map("user").build();
    private static final List<String> ALL_ALGORITHMS = List.of("RS256", "RS384", "RS512", "ES256", "ES384", "ES512",
            "PS256", "PS384", "PS512");
    private static final Pattern DOMAIN_PREFIXED = Pattern.compile(
            "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+");
    private static final Pattern USES_EMAIL = Pattern.compile("claims\\s*\\.\\??\\s*email(?![A-Za-z0-9_])");

    private final Set<String> disallowedIssuers;
    private final List<FieldError> errors;

    JwtIssuerParser(Set<String> disallowedIssuers, List<FieldError> errors) {
        this.disallowedIssuers = disallowedIssuers;
        this.errors = errors;
    }

    /** The issuer of {@code j}, or null when it has errors (added to the list). */
    JwtIssuer parse(JsonNode j, String at) {
        int before = errors.size();
        JsonNode iss = j.path("issuer");
        String url = iss.path("url").asText("");
        String discovery = iss.path("discoveryURL").asText("");
        issuerUrl(url, at + ".issuer.url");
        if (!discovery.isEmpty()) {
            if (!url.isEmpty() && stripSlash(url).equals(stripSlash(discovery))) {
                errors.add(FieldError.invalid(at + ".issuer.discoveryURL", GoStrings.quote(discovery),
                        "discoveryURL must be different from URL"));
            }
            checkUrl(discovery, at + ".issuer.discoveryURL", Set.of());
        }
        List<String> audiences = audiences(iss, at + ".issuer");
        String ca = iss.path("certificateAuthority").asText("");
        if (!ca.isEmpty() && !parsableCa(ca)) {
            errors.add(FieldError.invalid(at + ".issuer.certificateAuthority", "\"<omitted>\"",
                    "data does not contain any valid RSA or ECDSA certificates"));
        }
        List<JwtIssuer.ClaimRule> claimRules = claimRules(j.path("claimValidationRules"), at + ".claimValidationRules");
        JsonNode maps = j.path("claimMappings");
        JwtIssuer.Mapping username = prefixedMapping(maps.path("username"), at + ".claimMappings.username", true);
        JwtIssuer.Mapping groups = prefixedMapping(maps.path("groups"), at + ".claimMappings.groups", false);
        JwtIssuer.Mapping uid = uidMapping(maps.path("uid"), at + ".claimMappings.uid");
        List<JwtIssuer.Extra> extra = extra(maps.path("extra"), at + ".claimMappings.extra");
        emailVerified(j, at);
        List<JwtIssuer.UserRule> userRules = userRules(j.path("userValidationRules"), at + ".userValidationRules");
        if (errors.size() > before) {
            return null;
        }
        return new JwtIssuer(url, discovery.isEmpty() ? null : discovery, ca.isEmpty() ? null : ca, audiences,
                ALL_ALGORITHMS, username, groups, uid, extra, claimRules, userRules);
    }

    private void issuerUrl(String url, String at) {
        if (url.isEmpty()) {
            errors.add(FieldError.required(at, ""));
        } else {
            checkUrl(url, at, disallowedIssuers);
        }
    }

    private void checkUrl(String url, String at, Set<String> disallowed) {
        if (disallowed.contains(url)) {
            errors.add(FieldError.invalid(at, GoStrings.quote(url), "URL must not overlap with disallowed issuers: "
                    + new TreeSet<>(disallowed).toString().replace(",", "")));
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            errors.add(FieldError.invalid(at, GoStrings.quote(url), e.getMessage()));
            return;
        }
        if (!"https".equals(uri.getScheme())) {
            errors.add(FieldError.invalid(at, GoStrings.quote(url), "URL scheme must be https"));
        }
        if (uri.getRawUserInfo() != null) {
            errors.add(FieldError.invalid(at, GoStrings.quote(url), "URL must not contain a username or password"));
        }
        if (uri.getRawQuery() != null && !uri.getRawQuery().isEmpty()) {
            errors.add(FieldError.invalid(at, GoStrings.quote(url), "URL must not contain a query"));
        }
        if (uri.getRawFragment() != null && !uri.getRawFragment().isEmpty()) {
            errors.add(FieldError.invalid(at, GoStrings.quote(url), "URL must not contain a fragment"));
        }
    }

    private List<String> audiences(JsonNode iss, String at) {
        List<String> audiences = new ArrayList<>();
        iss.path("audiences").forEach(a -> audiences.add(a.asText()));
        String policy = iss.path("audienceMatchPolicy").asText("");
        if (audiences.isEmpty()) {
            errors.add(FieldError.required(at + ".audiences", "at least one " + at + ".audiences is required"));
            return audiences;
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < audiences.size(); i++) {
            String a = audiences.get(i);
            if (a.isEmpty()) {
                errors.add(FieldError.required(at + ".audiences[" + i + "]", ""));
            }
            if (!seen.add(a)) {
                errors.add(new FieldError(FieldError.Type.DUPLICATE, at + ".audiences[" + i + "]", GoStrings.quote(a), ""));
            }
        }
        if (audiences.size() > 1 && !policy.equals("MatchAny")) {
            errors.add(FieldError.invalid(at + ".audienceMatchPolicy", GoStrings.quote(policy),
                    "audienceMatchPolicy must be MatchAny for multiple audiences"));
        } else if (audiences.size() == 1 && !policy.isEmpty() && !policy.equals("MatchAny")) {
            errors.add(FieldError.invalid(at + ".audienceMatchPolicy", GoStrings.quote(policy),
                    "audienceMatchPolicy must be empty or MatchAny for single audience"));
        }
        return audiences;
    }

    private List<JwtIssuer.ClaimRule> claimRules(JsonNode rules, String at) {
        List<JwtIssuer.ClaimRule> out = new ArrayList<>();
        Set<String> claims = new HashSet<>();
        Set<String> expressions = new HashSet<>();
        for (int i = 0; i < rules.size(); i++) {
            JsonNode r = rules.get(i);
            String path = at + "[" + i + "]";
            String claim = r.path("claim").asText("");
            String expression = r.path("expression").asText("");
            if (!claim.isEmpty() && !expression.isEmpty()) {
                errors.add(FieldError.invalid(path, GoStrings.quote(claim), "claim and expression can't both be set"));
            } else if (claim.isEmpty() && expression.isEmpty()) {
                errors.add(FieldError.required(path, "claim or expression is required"));
            } else if (!claim.isEmpty()) {
                if (!r.path("message").asText("").isEmpty()) {
                    errors.add(FieldError.invalid(path + ".message", GoStrings.quote(r.path("message").asText()),
                            "may not be specified when claim is set"));
                }
                if (!claims.add(claim)) {
                    errors.add(new FieldError(FieldError.Type.DUPLICATE, path + ".claim", GoStrings.quote(claim), ""));
                }
                out.add(new JwtIssuer.RequiredClaim(claim, r.path("requiredValue").asText("")));
            } else {
                if (!r.path("requiredValue").asText("").isEmpty()) {
                    errors.add(FieldError.invalid(path + ".requiredValue", GoStrings.quote(r.path("requiredValue")
                            .asText()), "may not be specified when expression is set"));
                }
                if (!expressions.add(expression)) {
                    errors.add(new FieldError(FieldError.Type.DUPLICATE, path + ".expression", GoStrings.quote(expression), ""));
                    continue;
                }
                CelExpression compiled = compile(CLAIMS, expression, path + ".expression", true);
                if (compiled != null) {
                    out.add(new JwtIssuer.ClaimExpression(compiled, r.path("message").asText("")));
                }
            }
        }
        return out;
    }

    private JwtIssuer.Mapping prefixedMapping(JsonNode m, String at, boolean required) {
        String claim = m.path("claim").asText("");
        String expression = m.path("expression").asText("");
        if (!claim.isEmpty() && !expression.isEmpty()) {
            errors.add(FieldError.invalid(at, "\"\"", "claim and expression can't both be set"));
        } else if (claim.isEmpty() && expression.isEmpty()) {
            if (required) {
                errors.add(FieldError.required(at, "claim or expression is required"));
            }
        } else if (!expression.isEmpty()) {
            if (m.has("prefix") && !m.path("prefix").isNull()) {
                errors.add(FieldError.invalid(at + ".prefix", GoStrings.quote(m.path("prefix").asText()),
                        "may not be specified when expression is set"));
            }
            CelExpression compiled = compile(CLAIMS, expression, at + ".expression", false);
            return compiled == null ? new JwtIssuer.None() : new JwtIssuer.Expression(compiled);
        } else {
            if (!m.has("prefix") || m.path("prefix").isNull()) {
                errors.add(FieldError.required(at + ".prefix", "prefix is required when claim is set. It can be set "
                        + "to an empty string to disable prefixing"));
            }
            return new JwtIssuer.Claim(claim, m.path("prefix").asText(""));
        }
        return new JwtIssuer.None();
    }

    private JwtIssuer.Mapping uidMapping(JsonNode m, String at) {
        String claim = m.path("claim").asText("");
        String expression = m.path("expression").asText("");
        if (!claim.isEmpty() && !expression.isEmpty()) {
            errors.add(FieldError.invalid(at, "\"\"", "claim and expression can't both be set"));
        } else if (!expression.isEmpty()) {
            CelExpression compiled = compile(CLAIMS, expression, at + ".expression", false);
            return compiled == null ? new JwtIssuer.None() : new JwtIssuer.Expression(compiled);
        } else if (!claim.isEmpty()) {
            return new JwtIssuer.Claim(claim, "");
        }
        return new JwtIssuer.None();
    }

    private List<JwtIssuer.Extra> extra(JsonNode list, String at) {
        List<JwtIssuer.Extra> out = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode e = list.get(i);
            String path = at + "[" + i + "]";
            String key = e.path("key").asText("");
            if (key.isEmpty()) {
                errors.add(FieldError.required(path + ".key", ""));
            } else if (!DOMAIN_PREFIXED.matcher(key.toLowerCase(Locale.ROOT)).matches()) {
                errors.add(FieldError.invalid(path + ".key", GoStrings.quote(key), "must be a domain-prefixed path "
                        + "(such as \"acme.io/foo\")"));
            }
            if (!key.equals(key.toLowerCase(Locale.ROOT))) {
                errors.add(FieldError.invalid(path + ".key", GoStrings.quote(key), "must be lowercase"));
            }
            String domain = key.contains("/") ? key.substring(0, key.indexOf('/')) : "";
            if (domain.equals("kubernetes.io") || domain.endsWith(".kubernetes.io") || domain.equals("k8s.io")
                    || domain.endsWith(".k8s.io")) {
                errors.add(FieldError.invalid(path + ".key", GoStrings.quote(key),
                        "k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use"));
            }
            if (!keys.add(key)) {
                errors.add(new FieldError(FieldError.Type.DUPLICATE, path + ".key", GoStrings.quote(key), ""));
                continue;
            }
            String value = e.path("valueExpression").asText("");
            if (value.isEmpty()) {
                errors.add(FieldError.required(path + ".valueExpression", ""));
                continue;
            }
            CelExpression compiled = compile(CLAIMS, value, path + ".valueExpression", false);
            if (compiled != null) {
                out.add(new JwtIssuer.Extra(key, compiled));
            }
        }
        return out;
    }

    /** kube: an expression username using {@code claims.email} must be guarded by {@code claims.email_verified}. */
    private void emailVerified(JsonNode j, String at) {
        String username = j.path("claimMappings").path("username").path("expression").asText("");
        if (!USES_EMAIL.matcher(username).find()) {
            return;
        }
        List<String> sources = new ArrayList<>(List.of(username));
        j.path("claimMappings").path("extra").forEach(e -> sources.add(e.path("valueExpression").asText("")));
        j.path("claimValidationRules").forEach(r -> sources.add(r.path("expression").asText("")));
        if (sources.stream().noneMatch(s -> s.contains("email_verified"))) {
            errors.add(FieldError.invalid(at + ".claimMappings.username.expression", GoStrings.quote(username),
                    "claims.email_verified must be used in claimMappings.username.expression or "
                            + "claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when "
                            + "claims.email is used in claimMappings.username.expression"));
        }
    }

    private List<JwtIssuer.UserRule> userRules(JsonNode rules, String at) {
        List<JwtIssuer.UserRule> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < rules.size(); i++) {
            JsonNode r = rules.get(i);
            String path = at + "[" + i + "]";
            String expression = r.path("expression").asText("");
            if (expression.isEmpty()) {
                errors.add(FieldError.required(path + ".expression", ""));
            } else if (!seen.add(expression)) {
                errors.add(new FieldError(FieldError.Type.DUPLICATE, path + ".expression", GoStrings.quote(expression), ""));
            } else {
                CelExpression compiled = compile(USER, expression, path + ".expression", true);
                if (compiled != null) {
                    out.add(new JwtIssuer.UserRule(compiled, r.path("message").asText("")));
                }
            }
        }
        return out;
    }

    /**
     * The compiled expression, or null with an error when it does not compile or, for a rule, is not of type
     * {@code bool} (kube's compiler: mappings may be of any type, checked when evaluated).
     */
    private CelExpression compile(CelEnvironment env, String source, String at, boolean rule) {
        try {
            CelExpression e = env.compile(source);
            if (rule && !e.resultType().equals("bool")) {
                errors.add(FieldError.invalid(at, GoStrings.quote(source), "must evaluate to bool"));
                return null;
            }
            return e;
        } catch (CelError e) {
            errors.add(FieldError.invalid(at, GoStrings.quote(source), e.getMessage()));
            return null;
        }
    }

    private static boolean parsableCa(String pem) {
        try {
            return !Pem.certificates(pem).isEmpty();
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static String stripSlash(String s) {
        return s.replaceAll("/+$", "");
    }
}

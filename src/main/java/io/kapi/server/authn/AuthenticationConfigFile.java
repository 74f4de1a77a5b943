package io.kapi.server.authn;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.cel.CelEnvironment;
import io.kapi.machinery.cel.CelError;
import io.kapi.machinery.cel.CelExpression;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code --authentication-config}: kube's {@code AuthenticationConfiguration} (apiserver.config.k8s.io
 * v1, v1beta1 or v1alpha1), YAML or JSON: its {@code jwt} authenticators and its {@code anonymous}
 * settings. Problems stop the start with kube's field paths ({@code jwt[0].claimMappings.username}).
 *
 * @param anonymous null when the file does not say (the {@code --anonymous-auth} flag decides)
 */
public record AuthenticationConfigFile(List<JwtIssuer> jwt, Anonymous anonymous) {

    private static final Set<String> VERSIONS = Set.of("apiserver.config.k8s.io/v1", "apiserver.config.k8s.io/v1beta1",
            "apiserver.config.k8s.io/v1alpha1");

    /** {@code anonymous}: enabled, and the paths it is limited to (empty: every path). */
    public record Anonymous(boolean enabled, List<String> paths) {
    }

    public static AuthenticationConfigFile read(Path file) {
        JsonNode root;
        try {
            root = Json.YAML.readTree(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read --authentication-config " + file, e);
        }
        if (!VERSIONS.contains(root.path("apiVersion").asText()) || !root.path("kind").asText()
                .equals("AuthenticationConfiguration")) {
            throw new IllegalArgumentException("--authentication-config %s: expected kind AuthenticationConfiguration of "
                    .formatted(file) + "apiserver.config.k8s.io/v1, got " + root.path("apiVersion").asText() + " "
                    + root.path("kind").asText());
        }
        List<JwtIssuer> jwt = new ArrayList<>();
        JsonNode list = root.path("jwt");
        for (int i = 0; i < list.size(); i++) {
            jwt.add(issuer(list.get(i), "jwt[" + i + "]"));
        }
        Anonymous anonymous = null;
        if (root.has("anonymous")) {
            List<String> paths = new ArrayList<>();
            root.path("anonymous").path("conditions").forEach(c -> paths.add(c.path("path").asText()));
            anonymous = new Anonymous(root.path("anonymous").path("enabled").asBoolean(false), paths);
        }
        return new AuthenticationConfigFile(jwt, anonymous);
    }

    private static JwtIssuer issuer(JsonNode j, String at) {
        JsonNode iss = j.path("issuer");
        String url = require(iss.path("url").asText(""), at + ".issuer.url");
        if (!url.startsWith("https://")) {
            throw invalid(at + ".issuer.url", "URL scheme must be https");
        }
        List<String> audiences = new ArrayList<>();
        iss.path("audiences").forEach(a -> audiences.add(a.asText()));
        if (audiences.isEmpty()) {
            throw invalid(at + ".issuer.audiences", "Required value: at least one issuer.audiences is required");
        }
        JsonNode maps = j.path("claimMappings");
        JwtIssuer.Mapping username = mapping(maps.path("username"), at + ".claimMappings.username", true);
        if (username instanceof JwtIssuer.None) {
            throw invalid(at + ".claimMappings.username", "Required value: claim or expression is required");
        }
        List<JwtIssuer.Extra> extra = new ArrayList<>();
        maps.path("extra").forEach(e -> extra.add(new JwtIssuer.Extra(e.path("key").asText(),
                cel(e.path("valueExpression").asText(), "claims"))));
        List<JwtIssuer.ClaimRule> claimRules = new ArrayList<>();
        j.path("claimValidationRules").forEach(r -> claimRules.add(r.has("expression")
                ? new JwtIssuer.ClaimExpression(cel(r.path("expression").asText(), "claims"), r.path("message").asText())
                : new JwtIssuer.RequiredClaim(r.path("claim").asText(), r.path("requiredValue").asText())));
        List<JwtIssuer.UserRule> userRules = new ArrayList<>();
        j.path("userValidationRules").forEach(r -> userRules.add(new JwtIssuer.UserRule(
                cel(r.path("expression").asText(), "user"), r.path("message").asText())));
        String ca = iss.path("certificateAuthority").asText("");
        String discovery = iss.path("discoveryURL").asText("");
        return new JwtIssuer(url, discovery.isEmpty() ? null : discovery, ca.isEmpty() ? null : ca, audiences,
                List.of("RS256", "RS384", "RS512", "ES256", "ES384", "ES512", "PS256", "PS384", "PS512"),
                username, mapping(maps.path("groups"), at + ".claimMappings.groups", false),
                mapping(maps.path("uid"), at + ".claimMappings.uid", false), extra, claimRules, userRules);
    }

    private static JwtIssuer.Mapping mapping(JsonNode m, String at, boolean prefixRequired) {
        boolean claim = !m.path("claim").asText("").isEmpty();
        boolean expression = !m.path("expression").asText("").isEmpty();
        if (claim && expression) {
            throw invalid(at, "Invalid value: claim and expression cannot both be set");
        }
        if (expression) {
            if (m.has("prefix")) {
                throw invalid(at + ".prefix", "Invalid value: may not be specified when expression is set");
            }
            return new JwtIssuer.Expression(cel(m.path("expression").asText(), "claims"));
        }
        if (claim) {
            if (prefixRequired && !m.has("prefix")) {
                throw invalid(at + ".prefix", "Required value: prefix is required when claim is set. It can be set "
                        + "to an empty string to disable prefixing");
            }
            return new JwtIssuer.Claim(m.path("claim").asText(), m.path("prefix").asText(""));
        }
        return new JwtIssuer.None();
    }

    private static final CelEnvironment CLAIMS = CelEnvironment.builder().map("claims").build();
    private static final CelEnvironment USER = CelEnvironment.builder().map("user").build();

    private static CelExpression cel(String source, String variable) {
        try {
            return ("user".equals(variable) ? USER : CLAIMS).compile(source);
        } catch (CelError e) {
            throw invalid("expression", e.getMessage());
        }
    }

    private static String require(String value, String at) {
        if (value.isEmpty()) {
            throw invalid(at, "Required value");
        }
        return value;
    }

    private static IllegalArgumentException invalid(String at, String message) {
        return new IllegalArgumentException("--authentication-config: " + at + ": " + message);
    }

    /** The JWT authenticator of the {@code --oidc-*} flags, with kube's defaults for the prefixes. */
    public static JwtIssuer fromFlags(AuthenticationConfig.Oidc oidc) {
        String claim = oidc.usernameClaim() == null || oidc.usernameClaim().isEmpty() ? "sub" : oidc.usernameClaim();
        String prefix = oidc.usernamePrefix();
        if (prefix == null || prefix.isEmpty()) {
            prefix = claim.equals("email") ? "" : oidc.issuerUrl() + "#";
        } else if (prefix.equals("-")) {
            prefix = "";
        }
        JwtIssuer.Mapping groups = oidc.groupsClaim() == null || oidc.groupsClaim().isEmpty() ? new JwtIssuer.None()
                : new JwtIssuer.Claim(oidc.groupsClaim(), oidc.groupsPrefix() == null ? "" : oidc.groupsPrefix());
        List<JwtIssuer.ClaimRule> required = new ArrayList<>();
        oidc.requiredClaims().forEach((k, v) -> required.add(new JwtIssuer.RequiredClaim(k, v)));
        String ca;
        try {
            ca = oidc.caFile() == null ? null : Files.readString(oidc.caFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read --oidc-ca-file " + oidc.caFile(), e);
        }
        return new JwtIssuer(oidc.issuerUrl(), null, ca, List.of(oidc.clientId()),
                oidc.signingAlgs().isEmpty() ? List.of("RS256") : oidc.signingAlgs(), new JwtIssuer.Claim(claim, prefix),
                groups, new JwtIssuer.None(), List.of(), required, List.of());
    }
}

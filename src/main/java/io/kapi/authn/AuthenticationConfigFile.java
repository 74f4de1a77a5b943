package io.kapi.authn;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code --authentication-config}: kube's {@code AuthenticationConfiguration} (apiserver.config.k8s.io
 * v1, v1beta1 or v1alpha1), YAML or JSON: its {@code jwt} authenticators and its {@code anonymous}
 * settings. A file that cannot be read or decoded stops the start with kube's
 * {@code failed to load authentication configuration from file "..."}; one that does not validate with
 * {@code invalid authentication configuration: } and kube's field errors ({@code jwt[0].issuer.url:
 * Invalid value: ...}), several in brackets as kube aggregates them.
 *
 * @param anonymous null when the file does not say (the {@code --anonymous-auth} flag decides)
 */
public record AuthenticationConfigFile(List<JwtIssuer> jwt, Anonymous anonymous) {

    private static final Set<String> VERSIONS = Set.of("apiserver.config.k8s.io/v1", "apiserver.config.k8s.io/v1beta1",
            "apiserver.config.k8s.io/v1alpha1");
    private static final int MAX_AUTHENTICATORS = 64;

    /** {@code anonymous}: enabled, and the paths it is limited to (empty: every path). */
    public record Anonymous(boolean enabled, List<String> paths) {
    }

    /**
     * Reads and validates the file.
     *
     * @param disallowedIssuers the service-account issuers, which no JWT issuer may claim to be
     * @throws IllegalArgumentException worded as kube-apiserver's start-up error
     */
    public static AuthenticationConfigFile read(Path file, Collection<String> disallowedIssuers) {
        JsonNode root = decode(file);
        List<FieldError> errors = new ArrayList<>();
        JsonNode list = root.path("jwt");
        List<JwtIssuer> jwt = new ArrayList<>();
        if (list.size() > MAX_AUTHENTICATORS) {
            errors.add(new FieldError(FieldError.Type.TOO_MANY, "jwt", Integer.toString(list.size()),
                    "must have at most " + MAX_AUTHENTICATORS + " items"));
        } else {
            JwtIssuerParser parser = new JwtIssuerParser(Set.copyOf(disallowedIssuers), errors);
            Set<String> urls = new HashSet<>();
            Set<String> discoveries = new HashSet<>();
            for (int i = 0; i < list.size(); i++) {
                JwtIssuer issuer = parser.parse(list.get(i), "jwt[" + i + "]");
                String url = list.get(i).path("issuer").path("url").asText("");
                String discovery = list.get(i).path("issuer").path("discoveryURL").asText("");
                if (!urls.add(url)) {
                    errors.add(new FieldError(FieldError.Type.DUPLICATE, "jwt[" + i + "].issuer.url",
                            GoStrings.quote(url), ""));
                }
                if (!discovery.isEmpty() && !discoveries.add(discovery)) {
                    errors.add(new FieldError(FieldError.Type.DUPLICATE, "jwt[" + i + "].issuer.discoveryURL",
                            GoStrings.quote(discovery), ""));
                }
                if (issuer != null) {
                    jwt.add(issuer);
                }
            }
        }
        Anonymous anonymous = root.has("anonymous") ? anonymous(root.path("anonymous"), errors) : null;
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException("invalid authentication configuration: " + aggregate(errors));
        }
        return new AuthenticationConfigFile(jwt, anonymous);
    }

    /** Whether the file configures the anonymous authenticator (without validating the rest). */
    public static boolean configuresAnonymous(Path file) {
        return decode(file).has("anonymous");
    }

    private static JsonNode decode(Path file) {
        String failed = "failed to load authentication configuration from file " + GoStrings.quote(file.toString()) + ": ";
        JsonNode root;
        try {
            String text = Files.readString(file);
            if (text.isBlank()) {
                throw new IllegalArgumentException(failed + "empty config data");
            }
            root = Json.yaml().readTree(text);
        } catch (IOException e) {
            throw new IllegalArgumentException(failed + e.getMessage(), e);
        }
        String apiVersion = root.path("apiVersion").asText("");
        String kind = root.path("kind").asText("");
        if (!root.isObject() || !VERSIONS.contains(apiVersion) || !kind.equals("AuthenticationConfiguration")) {
            throw new IllegalArgumentException(failed + "no kind " + GoStrings.quote(kind) + " is registered for version "
                    + GoStrings.quote(apiVersion) + " in scheme \"pkg/runtime/scheme.go:100\"");
        }
        return root;
    }

    private static Anonymous anonymous(JsonNode node, List<FieldError> errors) {
        boolean enabled = node.path("enabled").asBoolean(false);
        JsonNode conditions = node.path("conditions");
        if (!enabled && !conditions.isEmpty()) {
            errors.add(FieldError.invalid("anonymous.conditions", conditions.toString(),
                    "enabled should be set to true when conditions are defined"));
        }
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < conditions.size(); i++) {
            String path = conditions.get(i).path("path").asText("");
            if (path.isEmpty()) {
                errors.add(FieldError.required("anonymous.conditions[" + i + "].path", ""));
            } else if (paths.contains(path)) {
                errors.add(new FieldError(FieldError.Type.DUPLICATE, "anonymous.conditions[" + i + "].path",
                        GoStrings.quote(path), ""));
            }
            paths.add(path);
        }
        return new Anonymous(enabled, paths);
    }

    /** kube's {@code ToAggregate}: one error alone, several as {@code [a, b]}. */
    private static String aggregate(List<FieldError> errors) {
        List<String> messages = errors.stream().map(FieldError::toString).distinct().toList();
        return messages.size() == 1 ? messages.getFirst() : "[" + String.join(", ", messages) + "]";
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

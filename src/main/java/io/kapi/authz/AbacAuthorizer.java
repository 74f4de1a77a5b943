package io.kapi.authz;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import io.kapi.request.Verb;
import io.kapi.user.UserInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The ABAC authorizer ({@code --authorization-mode=ABAC}, {@code --authorization-policy-file}), as kube's
 * {@code abac.PolicyList}: one JSON policy a line ({@code abac.authorization.kubernetes.io/v1beta1}
 * {@code Policy}, or the unversioned v0 form); a request is allowed when a policy matches its subject
 * (user and/or group, {@code *} for any), its verb (reads always; writes unless {@code readonly}) and
 * either its resource (namespace, resource and API group, each {@code *} for any) or its path
 * ({@code *}, exact, or a {@code prefix*}); otherwise there is no opinion.
 */
public final class AbacAuthorizer implements Authorizer, RuleResolver {

    private static final String V1BETA1 = "abac.authorization.kubernetes.io/v1beta1";
    private static final String ANY = "*";

    /** One policy's spec. */
    record Policy(String user, String group, boolean readonly, String apiGroup, String resource, String namespace,
                  String nonResourcePath) {
    }

    private final List<Policy> policies;

    AbacAuthorizer(List<Policy> policies) {
        this.policies = List.copyOf(policies);
    }

    /**
     * Reads a policy file; blank lines and lines starting with {@code #} are skipped.
     *
     * @throws IllegalArgumentException naming the file and line of a policy that cannot be read
     */
    public static AbacAuthorizer read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read --authorization-policy-file " + file, e);
        }
        List<Policy> policies = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            try {
                policies.add(parse(Json.MAPPER.readTree(line)));
            } catch (IOException | IllegalArgumentException e) {
                throw new IllegalArgumentException("error reading policy file %s, line %d: %s: %s".formatted(file, i + 1,
                        line, e.getMessage()), e);
            }
        }
        return new AbacAuthorizer(policies);
    }

    static Policy parse(JsonNode node) {
        if (!node.isObject()) {
            throw new IllegalArgumentException("a policy is a JSON object");
        }
        String version = node.path("apiVersion").asText("");
        if (version.equals(V1BETA1)) {
            if (!node.path("kind").asText().equals("Policy")) {
                throw new IllegalArgumentException("kind must be Policy");
            }
            JsonNode s = node.path("spec");
            return new Policy(s.path("user").asText(""), s.path("group").asText(""), s.path("readonly").asBoolean(false),
                    s.path("apiGroup").asText(""), s.path("resource").asText(""), s.path("namespace").asText(""),
                    s.path("nonResourcePath").asText(""));
        }
        if (!version.isEmpty()) {
            throw new IllegalArgumentException("unknown apiVersion " + version);
        }
        return v0(node);
    }

    /** kube's v0 conversion: empty subject is every authenticated user, empty scopes are wildcards. */
    private static Policy v0(JsonNode n) {
        String user = n.path("user").asText("");
        String group = n.path("group").asText("");
        if (user.isEmpty() && group.isEmpty()) {
            group = "system:authenticated";
        }
        String resource = n.path("resource").asText("");
        String namespace = n.path("namespace").asText("");
        return new Policy(user, group, n.path("readonly").asBoolean(false), ANY,
                resource.isEmpty() ? ANY : resource, namespace.isEmpty() ? ANY : namespace,
                resource.isEmpty() && namespace.isEmpty() ? ANY : "");
    }

    @Override
    public Decision authorize(AuthorizationAttributes a) {
        for (Policy p : policies) {
            if (matches(p, a)) {
                return Decision.allow();
            }
        }
        return new Decision.NoOpinion("No policy matched.");
    }

    static boolean matches(Policy p, AuthorizationAttributes a) {
        return subjectMatches(p, a.user()) && verbMatches(p, a.verb())
                && (a.resourceRequest() ? resourceMatches(p, a) : pathMatches(p, a.path()));
    }

    private static boolean subjectMatches(Policy p, UserInfo user) {
        if (user == null) {
            return false;
        }
        boolean matched = false;
        if (!p.user().isEmpty()) {
            if (!p.user().equals(ANY) && !p.user().equals(user.name())) {
                return false;
            }
            matched = true;
        }
        if (!p.group().isEmpty()) {
            if (!p.group().equals(ANY) && !user.groups().contains(p.group())) {
                return false;
            }
            matched = true;
        }
        return matched;
    }

    private static boolean verbMatches(Policy p, Verb verb) {
        boolean readOnly = verb == Verb.GET || verb == Verb.LIST || verb == Verb.WATCH;
        return readOnly || !p.readonly();
    }

    private static boolean resourceMatches(Policy p, AuthorizationAttributes a) {
        return (p.namespace().equals(ANY) || p.namespace().equals(a.namespace()))
                && (p.resource().equals(ANY) || p.resource().equals(a.resource()))
                && (p.apiGroup().equals(ANY) || p.apiGroup().equals(a.group()));
    }

    private static boolean pathMatches(Policy p, String path) {
        String np = p.nonResourcePath();
        return np.equals(ANY) || np.equals(path) || (np.endsWith(ANY) && !np.isEmpty()
                && path.startsWith(np.substring(0, np.length() - 1)));
    }

    /** kube's ABAC rules for a user: every matching policy as rules (no resource names, all verbs or reads). */
    @Override
    public Rules rulesFor(UserInfo user, String namespace) {
        List<PolicyRule> rules = new ArrayList<>();
        for (Policy p : policies) {
            if (!subjectMatches(p, user)) {
                continue;
            }
            List<String> verbs = p.readonly() ? List.of("get", "list", "watch") : List.of(ANY);
            if (!p.resource().isEmpty() && (p.namespace().equals(ANY) || p.namespace().equals(namespace))) {
                rules.add(new PolicyRule(verbs, List.of(p.apiGroup()), List.of(p.resource()), List.of(), List.of()));
            }
            if (!p.nonResourcePath().isEmpty()) {
                rules.add(new PolicyRule(verbs, List.of(), List.of(), List.of(), List.of(p.nonResourcePath())));
            }
        }
        return new Rules(rules, false);
    }
}

package io.kapi.authz;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoDuration;
import io.kapi.machinery.cel.CelEnvironment;
import io.kapi.machinery.cel.CelError;
import io.kapi.machinery.cel.CelExpression;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A webhook authorizer's options: from the legacy {@code --authorization-webhook-*} flags
 * ({@link #legacy}) or a structured configuration's {@code webhook} ({@link #parse}, validated with
 * kube's wording and defaults: authorizedTTL 5m, unauthorizedTTL 30s, both cached).
 *
 * @param kubeConfigFile the webhook's kubeconfig, or null for {@code InClusterConfig}
 * @param denyOnFailure {@code failurePolicy: Deny}: a webhook that fails (or a condition that errs) denies;
 *        otherwise it has no opinion
 * @param matchConditions CEL over {@code request} (the v1 SubjectAccessReview spec); all must hold for the
 *        webhook to be asked, else it has no opinion
 */
public record WebhookOptions(Duration timeout, Duration authorizedTtl, Duration unauthorizedTtl,
                             boolean cacheAuthorized, boolean cacheUnauthorized, String version,
                             boolean denyOnFailure, Path kubeConfigFile, List<CelExpression> matchConditions) {

    private static final Duration MAX_TIMEOUT = Duration.ofSeconds(30);
    private static final int MAX_CONDITIONS = 64;
    /** The environment of authorization match conditions: {@code request}, a SubjectAccessReviewSpec. */
    static final CelEnvironment CONDITIONS = CelEnvironment.builder().dynamic("request").build();

    public WebhookOptions {
        matchConditions = List.copyOf(matchConditions);
    }

    /** The options the legacy flags give: failures have no opinion, everything cached. */
    public static WebhookOptions legacy(Path kubeConfigFile, Duration authorizedTtl, Duration unauthorizedTtl,
                                        String version) {
        return new WebhookOptions(MAX_TIMEOUT, authorizedTtl, unauthorizedTtl, true, true, version, false,
                kubeConfigFile, List.of());
    }

    static WebhookOptions parse(String at, JsonNode w, List<FieldError> errors) {
        String p = at + ".webhook.";
        Duration timeout = duration(p + "timeout", w.path("timeout"), null, errors);
        if (timeout != null && (timeout.isNegative() || timeout.compareTo(MAX_TIMEOUT) > 0)) {
            errors.add(FieldError.invalid(p + "timeout", quote(w.path("timeout").asText()), "must be > 0s and <= 30s"));
        }
        Duration authorized = positive(p + "authorizedTTL", w.path("authorizedTTL"), Duration.ofMinutes(5), errors);
        Duration unauthorized = positive(p + "unauthorizedTTL", w.path("unauthorizedTTL"), Duration.ofSeconds(30),
                errors);
        String version = w.path("subjectAccessReviewVersion").asText("");
        oneOf(p + "subjectAccessReviewVersion", version, List.of("v1", "v1beta1"), "", errors);
        String conditionVersion = w.path("matchConditionSubjectAccessReviewVersion").asText("");
        JsonNode conditions = w.path("matchConditions");
        if (conditionVersion.isEmpty() && !conditions.isEmpty()) {
            errors.add(FieldError.required(p + "matchConditionSubjectAccessReviewVersion",
                    "required if match conditions are specified"));
        } else if (!conditionVersion.isEmpty()) {
            oneOf(p + "matchConditionSubjectAccessReviewVersion", conditionVersion, List.of("v1"), "", errors);
        }
        String policy = w.path("failurePolicy").asText("");
        oneOf(p + "failurePolicy", policy, List.of("NoOpinion", "Deny"), "", errors);
        Path kubeconfig = connection(p + "connectionInfo.", w.path("connectionInfo"), errors);
        List<CelExpression> compiled = conditions(p + "matchConditions", conditions, errors);
        return new WebhookOptions(timeout, authorized, unauthorized, w.path("cacheAuthorizedRequests").asBoolean(true),
                w.path("cacheUnauthorizedRequests").asBoolean(true), version, policy.equals("Deny"), kubeconfig,
                compiled);
    }

    private static String quote(String s) {
        return AuthorizationConfiguration.quote(s);
    }

    /** A duration, {@code fallback} when absent; Required when absent without one or zero. */
    private static Duration duration(String field, JsonNode value, Duration fallback, List<FieldError> errors) {
        Duration d = fallback;
        if (value.isTextual()) {
            try {
                d = GoDuration.parse(value.asText());
            } catch (IllegalArgumentException e) {
                errors.add(FieldError.invalid(field, quote(value.asText()), e.getMessage()));
                return null;
            }
        }
        if (d == null || d.isZero()) {
            errors.add(FieldError.required(field, ""));
            return null;
        }
        return d;
    }

    private static Duration positive(String field, JsonNode value, Duration fallback, List<FieldError> errors) {
        Duration d = duration(field, value, fallback, errors);
        if (d != null && d.isNegative()) {
            errors.add(FieldError.invalid(field, quote(value.asText()), "must be > 0s"));
        }
        return d;
    }

    private static void oneOf(String field, String value, List<String> allowed, String unused, List<FieldError> errors) {
        if (value.isEmpty()) {
            errors.add(FieldError.required(field, ""));
        } else if (!allowed.contains(value)) {
            errors.add(new FieldError(FieldError.Type.NOT_SUPPORTED, field, quote(value), "supported values: "
                    + String.join(", ", allowed.stream().map(WebhookOptions::quote).toList())));
        }
    }

    private static Path connection(String p, JsonNode info, List<FieldError> errors) {
        String type = info.path("type").asText("");
        JsonNode file = info.path("kubeConfigFile");
        switch (type) {
            case "" -> errors.add(FieldError.required(p + "type", ""));
            case "InClusterConfig" -> {
                if (file.isTextual()) {
                    errors.add(FieldError.invalid(p + "kubeConfigFile", quote(file.asText()),
                            "can only be set when type=KubeConfigFile"));
                }
            }
            case "KubeConfigFile" -> {
                return kubeconfig(p + "kubeConfigFile", file.asText(""), errors);
            }
            default -> errors.add(new FieldError(FieldError.Type.NOT_SUPPORTED, p + "type", quote(type),
                    "supported values: \"InClusterConfig\", \"KubeConfigFile\""));
        }
        return null;
    }

    private static Path kubeconfig(String field, String file, List<FieldError> errors) {
        if (file.isEmpty()) {
            errors.add(FieldError.required(field, ""));
            return null;
        }
        Path path = Path.of(file);
        if (!path.isAbsolute()) {
            errors.add(FieldError.invalid(field, quote(file), "must be an absolute path"));
        } else if (!Files.exists(path)) {
            errors.add(FieldError.invalid(field, quote(file), "error loading file: stat " + file
                    + ": no such file or directory"));
        } else if (!Files.isRegularFile(path)) {
            errors.add(FieldError.invalid(field, quote(file), "must be a regular file"));
        }
        return path;
    }

    private static List<CelExpression> conditions(String p, JsonNode conditions, List<FieldError> errors) {
        if (conditions.size() > MAX_CONDITIONS) {
            errors.add(new FieldError(FieldError.Type.TOO_MANY, p, null, "has " + conditions.size()
                    + ", must have at most " + MAX_CONDITIONS + " items"));
            return List.of();
        }
        List<CelExpression> compiled = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < conditions.size(); i++) {
            String field = p + "[" + i + "].expression";
            String expression = conditions.get(i).path("expression").asText("");
            if (expression.isBlank()) {
                errors.add(FieldError.required(field, ""));
            } else if (!seen.add(expression)) {
                errors.add(new FieldError(FieldError.Type.DUPLICATE, field, quote(expression), ""));
            } else {
                compile(field, expression, errors, compiled);
            }
        }
        return compiled;
    }

    private static void compile(String field, String expression, List<FieldError> errors, List<CelExpression> out) {
        try {
            CelExpression e = CONDITIONS.compile(expression);
            String type = e.resultType();
            if (!type.equals("bool") && !type.equals("dyn")) {
                errors.add(FieldError.invalid(field, quote(expression), "must evaluate to bool"));
                return;
            }
            out.add(e);
        } catch (CelError e) {
            errors.add(FieldError.invalid(field, quote(expression), e.getMessage()));
        }
    }
}

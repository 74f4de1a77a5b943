package io.kapi.authz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.cel.CelBudget;
import io.kapi.machinery.cel.CelError;
import io.kapi.machinery.cel.CelExpression;
import io.kapi.user.UserInfo;
import io.kapi.webhook.KubeconfigWebhook;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Webhook authorization mode ({@code --authorization-webhook-config-file}), as kube's webhook
 * authorizer: each request's attributes are POSTed to the remote as a {@code SubjectAccessReview}
 * ({@code authorization.k8s.io/v1} or {@code v1beta1}); {@code status.allowed} allows,
 * {@code status.denied} denies, anything else (or a webhook that fails) has no opinion. Answers are
 * cached by the review sent, allowed ones for {@code authorizedTtl}, the others for {@code unauthorizedTtl}.
 * A structured configuration's webhook ({@link WebhookOptions}) may also skip the webhook unless its CEL
 * {@code matchConditions} hold, turn caching off, and deny when the webhook fails
 * ({@code failurePolicy: Deny}).
 */
public final class WebhookAuthorizer implements Authorizer {

    private static final System.Logger LOG = System.getLogger(WebhookAuthorizer.class.getName());
    private static final int MAX_CACHED = 10_000;

    private record Cached(Decision decision, Instant expires) {
    }

    private final KubeconfigWebhook client;
    private final WebhookOptions options;
    private final String version;
    private final Clock clock;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();

    /** A webhook of the legacy flags. */
    public WebhookAuthorizer(KubeconfigWebhook client, String version, Duration authorizedTtl, Duration unauthorizedTtl,
                             Clock clock) {
        this(client, WebhookOptions.legacy(null, authorizedTtl, unauthorizedTtl, version), clock);
    }

    public WebhookAuthorizer(KubeconfigWebhook client, WebhookOptions options, Clock clock) {
        this.client = client;
        this.options = options;
        this.version = options.version();
        this.clock = clock;
    }

    @Override
    public Decision authorize(AuthorizationAttributes a) {
        if (!options.matchConditions().isEmpty()) {
            Boolean matches = matches(a);
            if (matches == null) {
                return failed();
            }
            if (!matches) {
                return Decision.noOpinion();
            }
        }
        ObjectNode review = review(a, version);
        String key = review.toString();
        Instant now = clock.instant();
        Cached hit = cache.get(key);
        if (hit != null && hit.expires().isAfter(now)) {
            return hit.decision();
        }
        Decision d;
        try {
            d = decision(client.post(review).path("status"));
        } catch (IOException e) {
            LOG.log(Level.WARNING, "authorization webhook failed: {0}", e.getMessage());
            return failed();
        }
        boolean allowed = d instanceof Decision.Allow;
        if (allowed ? options.cacheAuthorized() : options.cacheUnauthorized()) {
            if (cache.size() >= MAX_CACHED) {
                cache.clear();
            }
            cache.put(key, new Cached(d, now.plus(allowed ? options.authorizedTtl() : options.unauthorizedTtl())));
        }
        return d;
    }

    /** The failure policy's answer when the webhook, or a match condition, fails. */
    private Decision failed() {
        return options.denyOnFailure() ? new Decision.Deny("webhook authorizer failed")
                : new Decision.NoOpinion("webhook authorizer failed");
    }

    /**
     * Whether every match condition holds for the v1 SubjectAccessReview spec of {@code a}; null when one
     * fails to evaluate (kube's {@code CELMatcher}: the first false one decides no match).
     */
    private Boolean matches(AuthorizationAttributes a) {
        Map<String, Object> activation = Map.of("request", review(a, "v1").path("spec"));
        CelBudget budget = new CelBudget(WebhookOptions.CONDITIONS.limits().perCallLimit());
        Boolean result = Boolean.TRUE;
        for (CelExpression condition : options.matchConditions()) {
            try {
                if (!condition.test(activation, budget)) {
                    return Boolean.FALSE;
                }
            } catch (CelError e) {
                LOG.log(Level.WARNING, "authorization webhook match condition {0} failed: {1}", condition.source(),
                        e.getMessage());
                result = null;
            }
        }
        return result;
    }

    private static Decision decision(JsonNode status) {
        String reason = status.path("reason").asText("");
        if (status.path("allowed").asBoolean(false)) {
            return new Decision.Allow(reason);
        }
        return status.path("denied").asBoolean(false) ? new Decision.Deny(reason) : new Decision.NoOpinion(reason);
    }

    private static ObjectNode review(AuthorizationAttributes a, String version) {
        ObjectNode review = Json.object();
        review.put("apiVersion", "authorization.k8s.io/" + version);
        review.put("kind", "SubjectAccessReview");
        review.putObject("metadata").putNull("creationTimestamp");
        ObjectNode spec = review.putObject("spec");
        String verb = a.verb() == null ? "" : a.verb().apiName();
        if (a.resourceRequest()) {
            ObjectNode r = spec.putObject("resourceAttributes");
            r.put("namespace", a.namespace()).put("verb", verb).put("group", a.group()).put("version", a.version())
                    .put("resource", a.resource()).put("subresource", a.subresource()).put("name", a.name());
        } else {
            spec.putObject("nonResourceAttributes").put("path", a.path()).put("verb", verb);
        }
        UserInfo user = a.user();
        if (user != null) {
            spec.put("user", user.name());
            ArrayNode groups = spec.putArray(version.equals("v1beta1") ? "group" : "groups");
            user.groups().forEach(groups::add);
            if (!user.uid().isEmpty()) {
                spec.put("uid", user.uid());
            }
            if (!user.extra().isEmpty()) {
                ObjectNode extra = spec.putObject("extra");
                user.extra().forEach((k, v) -> v.forEach(extra.withArray(k)::add));
            }
        }
        review.putObject("status").put("allowed", false);
        return review;
    }
}

package io.kapi.authz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.authn.UserInfo;
import io.kapi.machinery.Json;
import io.kapi.server.webhook.WebhookClient;
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
 */
public final class WebhookAuthorizer implements Authorizer {

    private static final System.Logger LOG = System.getLogger(WebhookAuthorizer.class.getName());
    private static final int MAX_CACHED = 10_000;

    private record Cached(Decision decision, Instant expires) {
    }

    private final WebhookClient client;
    private final String version;
    private final Duration authorizedTtl;
    private final Duration unauthorizedTtl;
    private final Clock clock;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();

    public WebhookAuthorizer(WebhookClient client, String version, Duration authorizedTtl, Duration unauthorizedTtl,
                             Clock clock) {
        this.client = client;
        this.version = version;
        this.authorizedTtl = authorizedTtl;
        this.unauthorizedTtl = unauthorizedTtl;
        this.clock = clock;
    }

    @Override
    public Decision authorize(AuthorizationAttributes a) {
        ObjectNode review = review(a);
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
            return new Decision.NoOpinion("webhook authorizer failed");
        }
        if (cache.size() >= MAX_CACHED) {
            cache.clear();
        }
        cache.put(key, new Cached(d, now.plus(d instanceof Decision.Allow ? authorizedTtl : unauthorizedTtl)));
        return d;
    }

    private static Decision decision(JsonNode status) {
        String reason = status.path("reason").asText("");
        if (status.path("allowed").asBoolean(false)) {
            return new Decision.Allow(reason);
        }
        return status.path("denied").asBoolean(false) ? new Decision.Deny(reason) : new Decision.NoOpinion(reason);
    }

    private ObjectNode review(AuthorizationAttributes a) {
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

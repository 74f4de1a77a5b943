package io.kapi.authn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.user.UserInfo;
import io.kapi.webhook.KubeconfigWebhook;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code --authentication-token-webhook-config-file}: a {@code TokenReview} (authentication.k8s.io
 * {@code v1} or {@code v1beta1}, {@code --authentication-token-webhook-version}) POSTed to the remote
 * service, whose {@code status.authenticated} and {@code status.user} decide. A webhook that cannot be
 * reached or answers badly accepts nothing (logged without the token). Cached by the caller
 * ({@code --authentication-token-webhook-cache-ttl}). As kube's: the audiences wanted (none: the API's,
 * {@code implicitAudiences}) are sent; an answer without {@code status.audiences} is taken to be for the
 * API's, and the token is accepted for the audiences wanted among those answered.
 */
public record WebhookTokenAuthenticator(KubeconfigWebhook client, String version, List<String> implicitAudiences)
        implements TokenAuthenticator {

    private static final System.Logger LOG = System.getLogger(WebhookTokenAuthenticator.class.getName());

    @Override
    public Optional<Accepted> authenticate(String token, List<String> audiences) {
        ObjectNode review = Json.object();
        review.put("apiVersion", "authentication.k8s.io/" + version);
        review.put("kind", "TokenReview");
        review.putObject("metadata").putNull("creationTimestamp");
        ObjectNode spec = review.putObject("spec");
        spec.put("token", token);
        if (!audiences.isEmpty()) {
            ArrayNode aud = spec.putArray("audiences");
            audiences.forEach(aud::add);
        }
        review.putObject("status");
        JsonNode answer;
        try {
            answer = client.post(review);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "token webhook failed: {0}", e.getMessage());
            return Optional.empty();
        }
        JsonNode status = answer.path("status");
        if (!status.path("authenticated").asBoolean(false)) {
            return Optional.empty();
        }
        JsonNode user = status.path("user");
        List<String> groups = new ArrayList<>();
        user.path("groups").forEach(g -> groups.add(g.asText()));
        Map<String, List<String>> extra = new LinkedHashMap<>();
        user.path("extra").properties().forEach(e -> {
            List<String> values = new ArrayList<>();
            e.getValue().forEach(v -> values.add(v.asText()));
            extra.put(e.getKey(), values);
        });
        List<String> answered = new ArrayList<>();
        status.path("audiences").forEach(a -> answered.add(a.asText()));
        List<String> aud = AudienceAgnostic.shared(answered.isEmpty() ? implicitAudiences : answered, audiences);
        if (aud.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Accepted(new UserInfo(user.path("username").asText(""), user.path("uid").asText(""),
                groups, extra), aud));
    }
}

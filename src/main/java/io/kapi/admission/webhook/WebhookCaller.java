package io.kapi.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.ObjectLookup;
import io.kapi.machinery.Json;
import io.kapi.webhook.WebhookClient;
import java.time.Duration;

/**
 * Calls one webhook with an AdmissionReview over HTTPS ({@link WebhookClient}) and returns its
 * {@code response}, checked as kube checks it (apiVersion and kind of the review, the uid). Failures are
 * {@link CallFailure}s worded as kube's {@code failed to call webhook: ...} or
 * {@code received invalid webhook response: ...}.
 */
final class WebhookCaller {

    /** The call did not produce a usable answer. */
    static final class CallFailure extends Exception {
        CallFailure(String message) {
            super(message, null, false, false);
        }
    }

    private final WebhookClient client;

    WebhookCaller(ObjectLookup lookup) {
        this.client = new WebhookClient(lookup);
    }

    /**
     * @param request the AdmissionRequest (with its uid)
     * @return the AdmissionResponse
     */
    ObjectNode call(Webhook hook, ObjectNode request, Duration timeout) throws CallFailure {
        String apiVersion = "admission.k8s.io/" + hook.reviewVersion();
        ObjectNode review = Json.object();
        review.put("apiVersion", apiVersion);
        review.put("kind", "AdmissionReview");
        review.set("request", request);
        JsonNode body;
        try {
            body = client.post(hook.endpoint(), review, timeout);
        } catch (WebhookClient.CallFailure e) {
            throw new CallFailure((e.answered() ? "received invalid webhook response: " : "failed to call webhook: ")
                    + e.getMessage());
        }
        return check(body, apiVersion, request.path("uid").asText());
    }

    private static ObjectNode check(JsonNode body, String apiVersion, String uid) throws CallFailure {
        if (!apiVersion.equals(body.path("apiVersion").asText()) || !"AdmissionReview".equals(body.path("kind").asText())) {
            throw new CallFailure("received invalid webhook response: expected webhook response of " + apiVersion
                    + ", Kind=AdmissionReview, got " + body.path("apiVersion").asText() + ", Kind="
                    + body.path("kind").asText());
        }
        if (!(body.get("response") instanceof ObjectNode answer)) {
            throw new CallFailure("received invalid webhook response: webhook response was absent");
        }
        if (apiVersion.endsWith("/v1") && !uid.equals(answer.path("uid").asText())) {
            throw new CallFailure("received invalid webhook response: expected response.uid=\"" + uid + "\", got \""
                    + answer.path("uid").asText() + "\"");
        }
        return answer;
    }
}

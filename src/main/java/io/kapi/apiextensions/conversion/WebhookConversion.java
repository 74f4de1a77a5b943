package io.kapi.apiextensions.conversion;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.metrics.AdmissionMetrics;
import io.kapi.tracing.TraceScope;
import io.kapi.tracing.Tracing;
import io.kapi.webhook.WebhookClient;
import io.kapi.webhook.WebhookEndpoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Conversion strategy {@code Webhook}, as kube's webhook converter: the objects not yet in the desired
 * version go in one ConversionReview (the first of the CRD's {@code conversionReviewVersions} kube knows,
 * {@code v1} or {@code v1beta1}) to the webhook's URL or Service, with a 30 s timeout; the answer's
 * uid, result and converted objects are checked ({@link ConvertedObjects}). Every failure is a 500
 * worded as kube's: {@code conversion webhook for <group/version, Kind=K> failed: ...},
 * {@code ... returned invalid response: ...}, {@code ... returned invalid object: ...}.
 */
public final class WebhookConversion implements ObjectConversion {

    /** kube's conversion webhook timeout. */
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final WebhookClient client;
    private final WebhookEndpoint endpoint;
    private final String reviewApiVersion;
    private final String crdName;
    private final AdmissionMetrics metrics;

    private WebhookConversion(WebhookClient client, WebhookEndpoint endpoint, String reviewApiVersion, String crdName,
                              AdmissionMetrics metrics) {
        this.client = client;
        this.endpoint = endpoint;
        this.reviewApiVersion = reviewApiVersion;
        this.crdName = crdName;
        this.metrics = metrics;
    }

    /**
     * The conversion the CRD {@code crdName}'s {@code spec.conversion.webhook} (clientConfig,
     * conversionReviewVersions) names, its calls timed in {@code metrics}.
     */
    public static WebhookConversion of(JsonNode webhook, WebhookClient client, String crdName, AdmissionMetrics metrics) {
        String version = "v1";
        for (JsonNode v : webhook.path("conversionReviewVersions")) {
            if (v.asText().equals("v1") || v.asText().equals("v1beta1")) {
                version = v.asText();
                break;
            }
        }
        return new WebhookConversion(client, WebhookEndpoint.of(webhook.path("clientConfig")),
                "apiextensions.k8s.io/" + version, crdName, metrics);
    }

    @Override
    public List<ObjectNode> convert(List<ObjectNode> objects, String toApiVersion, boolean list) {
        List<Integer> pending = new ArrayList<>();
        for (int i = 0; i < objects.size(); i++) {
            if (!toApiVersion.equals(objects.get(i).path("apiVersion").asText())) {
                pending.add(i);
            }
        }
        if (pending.isEmpty()) {
            return objects;
        }
        ObjectNode first = objects.get(pending.getFirst());
        String from = first.path("apiVersion").asText() + ", Kind=" + first.path("kind").asText();
        String uid = UUID.randomUUID().toString();
        ArrayNode sent = Json.MAPPER.createArrayNode();
        pending.forEach(i -> sent.add(objects.get(i)));
        JsonNode answer;
        long start = System.nanoTime();
        boolean succeeded = false;
        try (TraceScope span = Tracing.start("Call conversion webhook", "from", from,
                "desired-api-version", toApiVersion, "UID", uid)) {
            span.attribute("object-count", sent.size());
            answer = client.post(endpoint, review(uid, toApiVersion, sent), TIMEOUT);
            JsonNode converted = convertedObjects(answer, uid, from);
            List<ObjectNode> out = new ArrayList<>(objects);
            ConvertedObjects.check(from, toApiVersion, sent, converted, list)
                    .forEach((index, object) -> out.set(pending.get(index), object));
            succeeded = true;
            return out;
        } catch (WebhookClient.CallFailure e) {
            throw ApiException.unknown("conversion webhook for " + from + " failed: " + e.getMessage());
        } finally {
            metrics.conversion(crdName, first.path("apiVersion").asText(), toApiVersion, succeeded, start);
        }
    }

    private ObjectNode review(String uid, String toApiVersion, ArrayNode objects) {
        ObjectNode review = Json.object();
        review.put("apiVersion", reviewApiVersion);
        review.put("kind", "ConversionReview");
        ObjectNode request = review.putObject("request");
        request.put("uid", uid);
        request.put("desiredAPIVersion", toApiVersion);
        request.set("objects", objects);
        return review;
    }

    /** The answer's {@code response.convertedObjects}, once its type, uid and result are as kube wants them. */
    private JsonNode convertedObjects(JsonNode answer, String uid, String from) {
        String problem = null;
        JsonNode response = answer.path("response");
        if (!reviewApiVersion.equals(answer.path("apiVersion").asText())
                || !"ConversionReview".equals(answer.path("kind").asText())) {
            problem = "expected webhook response of " + reviewApiVersion + ", Kind=ConversionReview, got "
                    + answer.path("apiVersion").asText() + ", Kind=" + answer.path("kind").asText();
        } else if (!response.isObject()) {
            problem = "no response provided";
        } else if (!uid.equals(response.path("uid").asText())) {
            problem = "expected response.uid=\"" + uid + "\", got \"" + response.path("uid").asText() + "\"";
        } else if (!"Success".equals(response.path("result").path("status").asText())) {
            String message = response.path("result").path("message").asText("");
            problem = !message.isEmpty() ? message : "response.result.status was '"
                    + response.path("result").path("status").asText() + "', not 'Success'";
        } else if (!response.path("convertedObjects").isArray()) {
            problem = "no objects returned";
        }
        if (problem != null) {
            throw ApiException.unknown("conversion webhook for " + from + " returned invalid response: " + problem);
        }
        return response.get("convertedObjects");
    }
}

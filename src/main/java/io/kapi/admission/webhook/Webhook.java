package io.kapi.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.cel.AdmissionCel;
import io.kapi.admission.cel.MatchConditions;
import io.kapi.admission.match.MatchCriteria;
import io.kapi.machinery.ObjectMeta;
import io.kapi.webhook.WebhookEndpoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One webhook of a Mutating- or ValidatingWebhookConfiguration, with kube's defaults applied
 * (failurePolicy Fail, matchPolicy Equivalent, timeoutSeconds 10, reinvocationPolicy Never, service
 * port 443) and its match conditions compiled.
 *
 * @param configuration the configuration's name
 * @param index the webhook's position among all webhooks called, for audit annotation keys
 */
record Webhook(String name, String configuration, int index, WebhookEndpoint endpoint, MatchCriteria match,
               MatchConditions conditions, boolean failOpen, String sideEffects, Duration timeout,
               List<String> reviewVersions, boolean reinvokeIfNeeded) {

    /** The webhooks of one configuration object, numbered on from {@code firstIndex}. */
    static List<Webhook> of(ObjectNode config, int firstIndex) {
        String configName = ObjectMeta.of(config).name();
        List<Webhook> hooks = new ArrayList<>();
        int i = firstIndex;
        for (JsonNode w : config.path("webhooks")) {
            hooks.add(one(w, configName, i++));
        }
        return hooks;
    }

    private static Webhook one(JsonNode w, String configName, int index) {
        List<String> versions = new ArrayList<>();
        w.path("admissionReviewVersions").forEach(v -> versions.add(v.asText()));
        if (versions.isEmpty()) {
            versions.add("v1beta1");
        }
        return new Webhook(w.path("name").asText(), configName, index, WebhookEndpoint.of(w.path("clientConfig")),
                MatchCriteria.ofWebhook(w), MatchConditions.compile(w.path("matchConditions"), AdmissionCel.conditions()),
                w.path("failurePolicy").asText("Fail").equals("Ignore"), w.path("sideEffects").asText("Unknown"),
                Duration.ofSeconds(w.path("timeoutSeconds").asLong(10)), List.copyOf(versions),
                w.path("reinvocationPolicy").asText("Never").equals("IfNeeded"));
    }

    /** Whether the webhook may be called for a dry run. */
    boolean supportsDryRun() {
        return sideEffects.equals("None") || sideEffects.equals("NoneOnDryRun");
    }

    /** The AdmissionReview version the webhook gets: v1 when it accepts it, else v1beta1. */
    String reviewVersion() {
        return reviewVersions.contains("v1") ? "v1" : "v1beta1";
    }
}

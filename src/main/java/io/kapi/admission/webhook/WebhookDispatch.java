package io.kapi.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.cel.AdmissionCel;
import io.kapi.admission.cel.AdmissionRequests;
import io.kapi.admission.cel.MatchConditions;
import io.kapi.admission.initializer.PluginContext;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.Status;
import io.kapi.machinery.cel.CelLimits;
import io.kapi.metrics.AdmissionMetrics;
import io.kapi.tracing.TraceScope;
import io.kapi.tracing.Tracing;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * What calling one webhook for one request means, shared by the mutating and validating plugins: whether
 * it applies (rules, selectors, match conditions), dry-run support, the call with the shorter of its
 * timeout and the request's deadline, the failure policy, warnings and audit annotations, and denials
 * worded as kube's ({@code admission webhook "x" denied the request: ...}).
 */
final class WebhookDispatch {

    private static final System.Logger LOG = System.getLogger(WebhookDispatch.class.getName());

    private final PluginContext context;
    private final WebhookCaller caller;
    private final String kind;

    /** @param kind {@code validating} or {@code mutating}, for audit annotation keys */
    WebhookDispatch(PluginContext context, String kind) {
        this.context = context;
        this.caller = new WebhookCaller(context.lookup());
        this.kind = kind;
    }

    /** Whether {@code hook} is to be called for the request (match conditions errors follow its failure policy). */
    boolean applies(Webhook hook, Attributes a) {
        if (!hook.match().matches(a, context.lookup())) {
            return false;
        }
        MatchConditions conditions = hook.conditions();
        if (conditions.isEmpty()) {
            return true;
        }
        ObjectNode request = AdmissionRequests.of(a, "");
        var result = conditions.evaluate(AdmissionCel.activation(a, context.authorizer(), request),
                CelLimits.KUBE.matchConditionsBudget());
        return switch (result) {
            case MatchConditions.Result.Match m -> true;
            case MatchConditions.Result.NoMatch n -> false;
            case MatchConditions.Result.Error e -> {
                if (hook.failOpen()) {
                    yield false;
                }
                throw ApiException.internal("failed calling webhook \"" + hook.name()
                        + "\": failed to evaluate match condition \"" + e.condition() + "\": " + e.message());
            }
        };
    }

    /**
     * Calls {@code hook}; empty when the call failed and the webhook fails open. Denials are thrown.
     *
     * @return the AdmissionResponse of an allowed request
     */
    Optional<ObjectNode> call(Webhook hook, Attributes a) {
        if (a.dryRun() && !hook.supportsDryRun()) {
            throw ApiException.badRequest("admission webhook \"" + hook.name() + "\" does not support dry run");
        }
        ObjectNode request = AdmissionRequests.of(a, UUID.randomUUID().toString());
        ObjectNode response;
        String operation = a.operation().toString();
        long start = System.nanoTime();
        try (TraceScope span = Tracing.start("Call " + kind + " webhook", "configuration", hook.configuration(),
                "webhook", hook.name(), "resource", a.target().resource().toString(), "subresource", a.target().subresource(),
                "operation", a.operation().toString(), "UID", request.path("uid").asText())) {
            response = caller.call(hook, request, timeout(hook, a));
        } catch (WebhookCaller.CallFailure e) {
            // no HTTP status of a failed call reaches here: kube's code label is 0 for those too
            if (!hook.failOpen()) {
                metrics().webhookRejection(hook.name(), metricType(), operation, "calling_webhook_error", 0);
            } else {
                metrics().webhookFailOpen(hook.name(), metricType());
            }
            metrics().webhook(hook.name(), metricType(), operation, !hook.failOpen(), 0, start);
            if (hook.failOpen()) {
                LOG.log(Level.WARNING, "Failed calling webhook, failing open {0}: {1}", hook.name(), e.getMessage());
                a.auditAnnotations().put("failed-open." + kind + ".webhook.admission.k8s.io/round_0_index_"
                        + hook.index(), hook.name());
                return Optional.empty();
            }
            throw ApiException.internal("failed calling webhook \"" + hook.name() + "\": " + e.getMessage());
        }
        response.path("warnings").forEach(w -> a.warn(w.asText()));
        response.path("auditAnnotations").properties().forEach(e ->
                a.auditAnnotations().put(hook.name() + "/" + e.getKey(), e.getValue().asText()));
        if (!response.path("allowed").asBoolean(false)) {
            ApiException denial = denied(hook.name(), response.get("status"));
            metrics().webhookRejection(hook.name(), metricType(), operation, "no_error", denial.code());
            metrics().webhook(hook.name(), metricType(), operation, true, denial.code(), start);
            throw denial;
        }
        metrics().webhook(hook.name(), metricType(), operation, false, 200, start);
        return Optional.of(response);
    }

    /** Leaves the webhooks' time since {@code start} out of the request's SLI latency, as kube does. */
    static void excludeFromSli(Attributes a, long start) {
        if (a.request() != null) {
            a.request().excluded().since(start);
        }
    }

    private AdmissionMetrics metrics() {
        return context.metrics();
    }

    /** kube's step type of a webhook in its metrics: {@code admit} for mutating ones. */
    private String metricType() {
        return kind.equals("mutating") ? "admit" : "validating";
    }

    private static Duration timeout(Webhook hook, Attributes a) {
        Instant deadline = a.request() == null ? null : a.request().deadline();
        if (deadline == null) {
            return hook.timeout();
        }
        Duration left = Duration.between(Instant.now(), deadline);
        return left.compareTo(hook.timeout()) < 0 ? (left.isNegative() ? Duration.ofMillis(1) : left) : hook.timeout();
    }

    /** kube's {@code ToStatusErr}: at least 400, Failure, the webhook named in the message. */
    static ApiException denied(String name, JsonNode result) {
        ObjectNode status = result instanceof ObjectNode s ? s.deepCopy() : Json.object();
        int code = status.path("code").asInt(0);
        if (code < 400) {
            code = 400;
            status.put("code", code);
        }
        String deniedBy = "admission webhook \"" + name + "\" denied the request";
        String message = status.path("message").asText("");
        String reason = status.path("reason").asText("");
        status.put("message", !message.isEmpty() ? deniedBy + ": " + message
                : !reason.isEmpty() ? deniedBy + ": " + reason : deniedBy + " without explanation");
        return Status.toException(status, code);
    }
}

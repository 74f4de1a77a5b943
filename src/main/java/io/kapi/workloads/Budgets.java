package io.kapi.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The disruption controller's arithmetic ({@code pkg/controller/disruption}, {@code pdbhelper}): how many
 * Pods a PodDisruptionBudget wants healthy, how many are, which evictions are still awaited, and the
 * status and DisruptionAllowed condition kube writes from them.
 */
final class Budgets {

    /** kube's {@code DeletionTimeout}: how long an evicted Pod stays in {@code disruptedPods} awaiting deletion. */
    static final Duration DELETION_TIMEOUT = Duration.ofMinutes(2);

    private Budgets() {
    }

    /** {@code expectedCount} and {@code desiredHealthy}. */
    record Expected(int expectedPods, int desiredHealthy) {
    }

    /**
     * {@code getExpectedPodCount}: with {@code maxUnavailable}, or a percentage {@code minAvailable}, the
     * controllers' scale ({@code scale}, asked only then) is what the budget counts against; an integer
     * {@code minAvailable} counts the Pods there are.
     */
    static Expected expected(JsonNode spec, int pods, java.util.function.IntSupplier scale) {
        JsonNode maxUnavailable = spec.path("maxUnavailable");
        JsonNode minAvailable = spec.path("minAvailable");
        if (!maxUnavailable.isMissingNode() && !maxUnavailable.isNull()) {
            int expected = scale.getAsInt();
            int desired = expected - RollingUpdate.scaled(maxUnavailable, expected, true);
            return new Expected(expected, Math.max(desired, 0));
        }
        if (!minAvailable.isMissingNode() && !minAvailable.isNull()) {
            if (minAvailable.isNumber()) {
                return new Expected(pods, minAvailable.asInt());
            }
            int expected = scale.getAsInt();
            return new Expected(expected, RollingUpdate.scaled(minAvailable, expected, true));
        }
        return new Expected(0, 0);
    }

    /** {@code updatePdbStatus}: none allowed until the budget expects Pods, never fewer than none. */
    static int disruptionsAllowed(int currentHealthy, int desiredHealthy, int expectedPods) {
        int allowed = currentHealthy - desiredHealthy;
        return expectedPods <= 0 || allowed <= 0 ? 0 : allowed;
    }

    /** The evictions still awaited, and when the first of them expires (the budget is synced again then). */
    record Disrupted(Map<String, String> pods, Optional<Instant> recheck, List<String> expired) {
    }

    /**
     * {@code buildDisruptedPodMap}: of the status's {@code disruptedPods}, those whose Pod is there, not being
     * deleted, and evicted less than {@link #DELETION_TIMEOUT} ago; the ones older are {@code expired}.
     */
    static Disrupted disrupted(JsonNode status, List<ObjectNode> pods, Instant now) {
        JsonNode recorded = status.path("disruptedPods");
        Map<String, String> kept = new LinkedHashMap<>();
        List<String> expired = new java.util.ArrayList<>();
        Instant recheck = null;
        for (ObjectNode pod : pods) {
            String name = ObjectMeta.of(pod).name();
            if (Pods.terminating(pod) || !recorded.hasNonNull(name)) {
                continue;
            }
            Instant evicted = Instant.parse(recorded.get(name).asText());
            Instant deadline = evicted.plus(DELETION_TIMEOUT);
            if (deadline.isBefore(now)) {
                expired.add(name);
            } else {
                kept.put(name, recorded.get(name).asText());
                if (recheck == null || deadline.isBefore(recheck)) {
                    recheck = deadline;
                }
            }
        }
        return new Disrupted(kept, Optional.ofNullable(recheck), expired);
    }

    /** {@code countHealthyPods}: Ready Pods neither being deleted nor awaiting their eviction. */
    static int currentHealthy(List<ObjectNode> pods, Map<String, String> disrupted, Instant now) {
        int healthy = 0;
        for (ObjectNode pod : pods) {
            if (Pods.terminating(pod)) {
                continue;
            }
            String evicted = disrupted.get(ObjectMeta.of(pod).name());
            if (evicted != null && Instant.parse(evicted).plus(DELETION_TIMEOUT).isAfter(now)) {
                continue;
            }
            if (Pods.ready(pod)) {
                healthy++;
            }
        }
        return healthy;
    }

    /**
     * The status {@code updatePdbStatus} writes, in kube's field order, with the DisruptionAllowed condition
     * as {@code UpdateDisruptionAllowedCondition} sets it (SufficientPods or InsufficientPods, no message).
     */
    static ObjectNode status(JsonNode old, long generation, int currentHealthy, Expected expected,
            Map<String, String> disrupted, Instant now) {
        int allowed = disruptionsAllowed(currentHealthy, expected.desiredHealthy(), expected.expectedPods());
        ObjectNode status = Json.object();
        status.put("observedGeneration", generation);
        if (!disrupted.isEmpty()) {
            ObjectNode map = status.putObject("disruptedPods");
            disrupted.forEach(map::put);
        }
        status.put("disruptionsAllowed", allowed);
        status.put("currentHealthy", currentHealthy);
        status.put("desiredHealthy", expected.desiredHealthy());
        status.put("expectedPods", expected.expectedPods());
        ArrayNode conditions = old.path("conditions").isArray() ? ((ArrayNode) old.get("conditions")).deepCopy()
                : Json.NODES.arrayNode();
        boolean sufficient = allowed > 0;
        setCondition(conditions, sufficient ? "True" : "False", sufficient ? "SufficientPods" : "InsufficientPods", "",
                generation, now);
        status.set("conditions", conditions);
        return status;
    }

    /** {@code ConditionsAreUpToDate}: the DisruptionAllowed condition agrees with the status. */
    static boolean conditionUpToDate(JsonNode status, long generation) {
        if (status.path("observedGeneration").asLong(0) != generation) {
            return false;
        }
        for (JsonNode c : status.path("conditions")) {
            if (c.path("type").asText().equals("DisruptionAllowed")) {
                return status.path("disruptionsAllowed").asInt(0) > 0
                        ? c.path("status").asText().equals("True") && c.path("reason").asText().equals("SufficientPods")
                        : c.path("status").asText().equals("False")
                                && c.path("reason").asText().equals("InsufficientPods");
            }
        }
        return false;
    }

    /**
     * apimachinery's {@code SetStatusCondition} for DisruptionAllowed: the transition time moves only when
     * the status does; reason, message and observedGeneration are always replaced.
     */
    static void setCondition(ArrayNode conditions, String status, String reason, String message, long observed,
            Instant now) {
        ObjectNode condition = null;
        for (JsonNode c : conditions) {
            if (c.path("type").asText().equals("DisruptionAllowed")) {
                condition = (ObjectNode) c;
            }
        }
        if (condition == null) {
            condition = conditions.addObject();
            condition.put("type", "DisruptionAllowed");
            condition.put("status", status);
            condition.put("observedGeneration", observed);
            condition.put("lastTransitionTime", ObjectMeta.format(now));
        } else if (!condition.path("status").asText().equals(status)) {
            condition.put("status", status);
            condition.put("lastTransitionTime", ObjectMeta.format(now));
        }
        condition.put("observedGeneration", observed);
        condition.put("reason", reason);
        condition.put("message", message);
    }
}

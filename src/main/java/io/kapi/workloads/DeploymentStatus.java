package io.kapi.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * A Deployment's status as kube's deployment controller computes it ({@code calculateStatus},
 * {@code syncRolloutStatus}): counts summed over its ReplicaSets; Available True (MinimumReplicasAvailable)
 * while at least replicas - maxUnavailable are available, else False (MinimumReplicasUnavailable);
 * Progressing True with NewReplicaSetCreated, FoundNewReplicaSet, ReplicaSetUpdated or
 * NewReplicaSetAvailable, False with ProgressDeadlineExceeded once {@code progressDeadlineSeconds} pass
 * without progress; the new ReplicaSet's ReplicaFailure carried over.
 */
final class DeploymentStatus {

    private static final int NO_DEADLINE = Integer.MAX_VALUE;
    private final Clock clock;

    DeploymentStatus(Clock clock) {
        this.clock = clock;
    }

    boolean hasProgressDeadline(JsonNode d) {
        JsonNode s = d.path("spec").path("progressDeadlineSeconds");
        return s.isNumber() && s.asInt() != NO_DEADLINE;
    }

    static JsonNode condition(JsonNode d, String type) {
        return conditionIn(d.path("status"), type);
    }

    private static JsonNode conditionIn(JsonNode status, String type) {
        for (JsonNode c : status.path("conditions")) {
            if (c.path("type").asText().equals(type)) {
                return c;
            }
        }
        return null;
    }

    /** Sets a condition on {@code d}'s status in place, as {@link #setIn}. */
    void set(ObjectNode d, String type, String status, String reason, String message) {
        setIn(d.with("status"), type, status, reason, message);
    }

    /**
     * kube's {@code SetDeploymentCondition}: nothing when status and reason are the same; else the condition
     * replaced and moved last, keeping its lastTransitionTime while its status stays.
     */
    void setIn(ObjectNode status, String type, String value, String reason, String message) {
        JsonNode current = conditionIn(status, type);
        if (current != null && current.path("status").asText().equals(value)
                && current.path("reason").asText().equals(reason)) {
            return;
        }
        String now = ObjectMeta.format(clock.instant());
        ObjectNode c = Json.object();
        c.put("type", type);
        c.put("status", value);
        c.put("lastUpdateTime", now);
        c.put("lastTransitionTime", current != null && current.path("status").asText().equals(value)
                ? current.path("lastTransitionTime").asText() : now);
        c.put("reason", reason);
        c.put("message", message);
        remove(status, type);
        status.withArray("conditions").add(c);
    }

    private static void remove(ObjectNode status, String type) {
        JsonNode conditions = status.path("conditions");
        for (int i = conditions.size() - 1; i >= 0; i--) {
            if (conditions.get(i).path("type").asText().equals(type)) {
                ((ArrayNode) conditions).remove(i);
            }
        }
    }

    private static int sum(List<ObjectNode> rss, String field) {
        return rss.stream().mapToInt(rs -> rs.path("status").path(field).asInt(0)).sum();
    }

    /** kube's {@code calculateStatus}. */
    ObjectNode calculate(List<ObjectNode> all, ObjectNode newRS, JsonNode d) {
        int available = sum(all, "availableReplicas");
        int total = all.stream().mapToInt(DeploymentController::replicas).sum();
        ObjectNode status = Json.object();
        long generation = ObjectMeta.of((ObjectNode) d).generation();
        if (generation != 0) {
            status.put("observedGeneration", generation);
        }
        putOrOmit(status, "replicas", sum(all, "replicas"));
        putOrOmit(status, "updatedReplicas", newRS == null ? 0 : newRS.path("status").path("replicas").asInt(0));
        putOrOmit(status, "readyReplicas", sum(all, "readyReplicas"));
        putOrOmit(status, "availableReplicas", available);
        putOrOmit(status, "unavailableReplicas", Math.max(0, total - available));
        if (d.path("status").has("conditions")) {
            status.set("conditions", d.path("status").path("conditions").deepCopy());
        }
        if (d.path("status").has("collisionCount")) {
            status.set("collisionCount", d.path("status").path("collisionCount"));
        }
        if (available >= DeploymentController.replicas(d) - RollingUpdate.maxUnavailable(d)) {
            setIn(status, "Available", "True", "MinimumReplicasAvailable", "Deployment has minimum availability.");
        } else {
            setIn(status, "Available", "False", "MinimumReplicasUnavailable",
                    "Deployment does not have minimum availability.");
        }
        return status;
    }

    private static void putOrOmit(ObjectNode status, String field, int value) {
        if (value != 0) {
            status.put(field, value);
        }
    }

    /** kube's {@code syncRolloutStatus}: {@link #calculate} and the Progressing and ReplicaFailure conditions. */
    ObjectNode rolloutStatus(List<ObjectNode> all, ObjectNode newRS, JsonNode d) {
        ObjectNode status = calculate(all, newRS, d);
        if (!hasProgressDeadline(d)) {
            remove(status, "Progressing");
        }
        JsonNode current = conditionIn(status, "Progressing");
        boolean completed = status.path("replicas").asInt(0) == status.path("updatedReplicas").asInt(0)
                && current != null && current.path("reason").asText().equals("NewReplicaSetAvailable");
        String rsName = newRS == null ? "" : ObjectMeta.of(newRS).name();
        if (hasProgressDeadline(d) && !completed) {
            if (complete(d, status)) {
                setIn(status, "Progressing", "True", "NewReplicaSetAvailable",
                        "ReplicaSet \"" + rsName + "\" has successfully progressed.");
            } else if (progressing(d, status)) {
                String message = newRS == null ? "" : "ReplicaSet \"" + rsName + "\" is progressing.";
                // a progressing update always refreshes lastUpdateTime (kube removes the condition first)
                String since = current != null && current.path("status").asText().equals("True")
                        ? current.path("lastTransitionTime").asText() : null;
                remove(status, "Progressing");
                setIn(status, "Progressing", "True", "ReplicaSetUpdated", message);
                if (since != null) {
                    ((ObjectNode) conditionIn(status, "Progressing")).put("lastTransitionTime", since);
                }
            } else if (timedOut(d, status)) {
                setIn(status, "Progressing", "False", "ProgressDeadlineExceeded",
                        "ReplicaSet \"" + rsName + "\" has timed out progressing.");
            }
        }
        JsonNode failure = newRS == null ? null : conditionIn(newRS.path("status"), "ReplicaFailure");
        for (ObjectNode rs : all) {
            if (failure == null) {
                failure = conditionIn(rs.path("status"), "ReplicaFailure");
            }
        }
        if (failure != null) {
            setIn(status, "ReplicaFailure", failure.path("status").asText(), failure.path("reason").asText(),
                    failure.path("message").asText());
        } else {
            remove(status, "ReplicaFailure");
        }
        if (status.path("conditions").isEmpty()) {
            status.remove("conditions");
        }
        return status;
    }

    /** kube's {@code DeploymentComplete}. */
    static boolean complete(JsonNode d, JsonNode status) {
        int replicas = DeploymentController.replicas(d);
        return status.path("updatedReplicas").asInt(0) == replicas && status.path("replicas").asInt(0) == replicas
                && status.path("availableReplicas").asInt(0) == replicas
                && status.path("observedGeneration").asLong(0) >= ObjectMeta.of((ObjectNode) d).generation();
    }

    /** kube's {@code DeploymentProgressing}: more updated, fewer old, more ready or more available Pods. */
    private static boolean progressing(JsonNode d, JsonNode status) {
        JsonNode old = d.path("status");
        int oldOld = old.path("replicas").asInt(0) - old.path("updatedReplicas").asInt(0);
        int newOld = status.path("replicas").asInt(0) - status.path("updatedReplicas").asInt(0);
        return status.path("updatedReplicas").asInt(0) > old.path("updatedReplicas").asInt(0) || newOld < oldOld
                || status.path("readyReplicas").asInt(0) > old.path("readyReplicas").asInt(0)
                || status.path("availableReplicas").asInt(0) > old.path("availableReplicas").asInt(0);
    }

    /** kube's {@code DeploymentTimedOut}: no progress for progressDeadlineSeconds since lastUpdateTime. */
    private boolean timedOut(JsonNode d, JsonNode status) {
        JsonNode c = conditionIn(status, "Progressing");
        if (!hasProgressDeadline(d) || c == null || c.path("reason").asText().equals("NewReplicaSetAvailable")) {
            return false;
        }
        if (c.path("reason").asText().equals("ProgressDeadlineExceeded")) {
            return true;
        }
        Instant from = Instant.parse(c.path("lastUpdateTime").asText());
        return from.plusSeconds(d.path("spec").path("progressDeadlineSeconds").asLong()).isBefore(clock.instant());
    }

    /**
     * kube's {@code requeueStuckDeployment}: how long until a Deployment still progressing is to be looked at
     * again for its deadline, in milliseconds; -1 when it need not be.
     */
    long recheckAfterMillis(JsonNode d) {
        JsonNode c = condition(d, "Progressing");
        if (!hasProgressDeadline(d) || c == null || !c.path("status").asText().equals("True")
                || c.path("reason").asText().equals("NewReplicaSetAvailable") || complete(d, d.path("status"))) {
            return -1;
        }
        Instant due = Instant.parse(c.path("lastUpdateTime").asText())
                .plusSeconds(d.path("spec").path("progressDeadlineSeconds").asLong());
        return Math.max(1000, due.toEpochMilli() - clock.instant().toEpochMilli());
    }
}

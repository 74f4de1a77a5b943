package io.kapi.workloads;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The arithmetic of a Deployment's rollout ({@code pkg/controller/deployment/util}): maxSurge rounded up and
 * maxUnavailable rounded down from their percentages, never both zero; how far the new ReplicaSet may grow.
 */
record RollingUpdate(int maxSurge, int maxUnavailable) {

    /** The strategy of {@code deployment}: its fenceposts for RollingUpdate, none for Recreate. */
    static RollingUpdate of(JsonNode deployment) {
        JsonNode strategy = deployment.path("spec").path("strategy");
        int replicas = deployment.path("spec").path("replicas").asInt(1);
        if (!strategy.path("type").asText("RollingUpdate").equals("RollingUpdate")) {
            return new RollingUpdate(0, 0);
        }
        JsonNode rolling = strategy.path("rollingUpdate");
        return resolve(rolling.path("maxSurge"), rolling.path("maxUnavailable"), replicas);
    }

    /** kube's {@code ResolveFenceposts}; absent values are kube's defaults (25 %). */
    static RollingUpdate resolve(JsonNode maxSurge, JsonNode maxUnavailable, int desired) {
        int surge = scaled(maxSurge, desired, true);
        int unavailable = scaled(maxUnavailable, desired, false);
        if (surge == 0 && unavailable == 0) {
            unavailable = 1;
        }
        return new RollingUpdate(surge, unavailable);
    }

    /** {@code GetScaledValueFromIntOrPercent}: an int as it is, {@code "n%"} of {@code total} rounded as asked. */
    static int scaled(JsonNode value, int total, boolean roundUp) {
        if (value.isMissingNode() || value.isNull()) {
            value = io.kapi.machinery.Json.NODES.textNode("25%");
        }
        if (value.isNumber()) {
            return value.asInt();
        }
        String text = value.asText();
        if (!text.endsWith("%")) {
            return Integer.parseInt(text);
        }
        long percent = Long.parseLong(text.substring(0, text.length() - 1));
        long scaled = percent * total;
        return (int) (roundUp ? Math.ceilDiv(scaled, 100) : Math.floorDiv(scaled, 100));
    }

    /** {@code MaxUnavailable}: never above the replicas, 0 for Recreate or no replicas. */
    static int maxUnavailable(JsonNode deployment) {
        int replicas = deployment.path("spec").path("replicas").asInt(1);
        if (replicas == 0 || !rolling(deployment)) {
            return 0;
        }
        return Math.min(of(deployment).maxUnavailable(), replicas);
    }

    /** {@code MaxSurge}: 0 for Recreate. */
    static int maxSurge(JsonNode deployment) {
        return rolling(deployment) ? of(deployment).maxSurge() : 0;
    }

    static boolean rolling(JsonNode deployment) {
        return deployment.path("spec").path("strategy").path("type").asText("RollingUpdate").equals("RollingUpdate");
    }

    /**
     * {@code NewRSNewReplicas}: Recreate goes straight to the replicas; RollingUpdate grows the new ReplicaSet
     * by what the surge leaves room for, never past the replicas.
     *
     * @param allReplicas the replicas of every ReplicaSet of the Deployment, the new one's included
     */
    static int newReplicaSetReplicas(JsonNode deployment, int allReplicas, int newReplicas) {
        int replicas = deployment.path("spec").path("replicas").asInt(1);
        if (!rolling(deployment)) {
            return replicas;
        }
        int maxTotal = replicas + maxSurge(deployment);
        if (allReplicas >= maxTotal) {
            return newReplicas;
        }
        return newReplicas + Math.min(maxTotal - allReplicas, replicas - newReplicas);
    }
}

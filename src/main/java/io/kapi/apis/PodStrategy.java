package io.kapi.apis;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.registry.DeleteOptions;
import io.kapi.registry.Deletion;
import io.kapi.registry.Strategy;
import io.kapi.registry.StrategyDecorator;

/**
 * Pods' graceful deletion, as kube-apiserver's pod strategy: a pod bound to a node and not yet
 * finished is marked with its grace period (the request's, else
 * {@code spec.terminationGracePeriodSeconds}, else 30 s) for the kubelet to end; an unscheduled or
 * finished pod, or a grace period of 0, is removed at once.
 */
public record PodStrategy(Strategy base) implements StrategyDecorator {

    private static final long DEFAULT_GRACE_SECONDS = 30;

    @Override
    public Deletion beforeDelete(ObjectNode pod, DeleteOptions options) {
        String phase = pod.path("status").path("phase").asText("");
        if (pod.path("spec").path("nodeName").asText("").isEmpty()
                || phase.equals("Succeeded") || phase.equals("Failed")) {
            return Deletion.IMMEDIATE;
        }
        long grace = options.gracePeriodSeconds() != null ? options.gracePeriodSeconds()
                : pod.path("spec").path("terminationGracePeriodSeconds").asLong(DEFAULT_GRACE_SECONDS);
        return grace <= 0 ? Deletion.IMMEDIATE : new Deletion.Graceful(grace);
    }
}

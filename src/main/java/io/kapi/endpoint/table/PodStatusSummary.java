package io.kapi.endpoint.table;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoValues;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The READY, STATUS and RESTARTS of a pod, worked out as kube's {@code printPod}: the phase, overridden by
 * the pod's reason, scheduling gates, the first unfinished init container, then the containers' own
 * states (last container first), then Terminating / Unknown for a pod being deleted.
 *
 * @param ready e.g. {@code 1/2}
 * @param status e.g. {@code Running}, {@code Init:0/1}, {@code CrashLoopBackOff}, {@code Terminating}
 * @param restarts e.g. {@code 0} or {@code 3 (5m ago)}
 */
record PodStatusSummary(String ready, String status, String restarts) {

    /** kube's {@code node.NodeUnreachablePodReason}. */
    private static final String NODE_LOST = "NodeLost";

    static PodStatusSummary of(JsonNode pod, Instant now) {
        Counter c = new Counter();
        String phase = GoValues.text(pod, "status", "phase");
        String reason = GoValues.textOr(pod, phase, "status", "reason");
        for (JsonNode cond : GoValues.items(pod, "status", "conditions")) {
            if ("PodScheduled".equals(GoValues.text(cond, "type")) && "SchedulingGated".equals(GoValues.text(cond, "reason"))) {
                reason = "SchedulingGated";
            }
        }

        List<JsonNode> initSpecs = GoValues.items(pod, "spec", "initContainers");
        Map<String, JsonNode> initByName = new HashMap<>();
        int total = GoValues.items(pod, "spec", "containers").size();
        for (JsonNode init : initSpecs) {
            initByName.put(GoValues.text(init, "name"), init);
            if (restartable(init)) {
                total++;
            }
        }

        boolean initializing = false;
        List<JsonNode> initStatuses = GoValues.items(pod, "status", "initContainerStatuses");
        for (int i = 0; i < initStatuses.size(); i++) {
            JsonNode st = initStatuses.get(i);
            boolean sidecar = restartable(initByName.get(GoValues.text(st, "name")));
            c.restarts += GoValues.integer(st, "restartCount");
            c.lastRestart = later(c.lastRestart, Obj.time(st, "lastState", "terminated", "finishedAt"));
            if (sidecar) {
                c.sidecarRestarts += GoValues.integer(st, "restartCount");
                c.lastSidecarRestart = later(c.lastSidecarRestart, Obj.time(st, "lastState", "terminated", "finishedAt"));
            }
            JsonNode terminated = GoValues.at(st, "state", "terminated");
            JsonNode waiting = GoValues.at(st, "state", "waiting");
            if (terminated.isObject() && GoValues.integer(terminated, "exitCode") == 0) {
                continue;
            }
            if (sidecar && GoValues.bool(st, "started")) {
                if (GoValues.bool(st, "ready")) {
                    c.ready++;
                }
                continue;
            }
            if (terminated.isObject()) {
                String r = GoValues.text(terminated, "reason");
                if (!r.isEmpty()) {
                    reason = "Init:" + r;
                } else if (GoValues.integer(terminated, "signal") != 0) {
                    reason = "Init:Signal:" + GoValues.integer(terminated, "signal");
                } else {
                    reason = "Init:ExitCode:" + GoValues.integer(terminated, "exitCode");
                }
            } else if (waiting.isObject() && !GoValues.text(waiting, "reason").isEmpty()
                    && !"PodInitializing".equals(GoValues.text(waiting, "reason"))) {
                reason = "Init:" + GoValues.text(waiting, "reason");
            } else {
                reason = "Init:" + i + "/" + initSpecs.size();
            }
            initializing = true;
            break;
        }

        if (!initializing || conditionTrue(pod, "Initialized")) {
            reason = containersReason(pod, reason, c);
        }

        if (Obj.deleting(pod) && NODE_LOST.equals(GoValues.text(pod, "status", "reason"))) {
            reason = "Unknown";
        } else if (Obj.deleting(pod) && !"Succeeded".equals(phase) && !"Failed".equals(phase)) {
            reason = "Terminating";
        }

        String restarts = Long.toString(c.restarts);
        if (c.restarts != 0 && c.lastRestart != null) {
            restarts = c.restarts + " (" + HumanDuration.since(c.lastRestart, now) + " ago)";
        }
        return new PodStatusSummary(c.ready + "/" + total, reason, restarts);
    }

    /** The regular containers, last first: restarts count from the sidecars only, a waiting or terminated one names the status. */
    private static String containersReason(JsonNode pod, String reason, Counter c) {
        c.restarts = c.sidecarRestarts;
        c.lastRestart = c.lastSidecarRestart;
        boolean hasRunning = false;
        List<JsonNode> statuses = GoValues.items(pod, "status", "containerStatuses");
        for (int i = statuses.size() - 1; i >= 0; i--) {
            JsonNode st = statuses.get(i);
            c.restarts += GoValues.integer(st, "restartCount");
            c.lastRestart = later(c.lastRestart, Obj.time(st, "lastState", "terminated", "finishedAt"));
            JsonNode waiting = GoValues.at(st, "state", "waiting");
            JsonNode terminated = GoValues.at(st, "state", "terminated");
            if (waiting.isObject() && !GoValues.text(waiting, "reason").isEmpty()) {
                reason = GoValues.text(waiting, "reason");
            } else if (terminated.isObject() && !GoValues.text(terminated, "reason").isEmpty()) {
                reason = GoValues.text(terminated, "reason");
            } else if (terminated.isObject()) {
                reason = GoValues.integer(terminated, "signal") != 0
                        ? "Signal:" + GoValues.integer(terminated, "signal")
                        : "ExitCode:" + GoValues.integer(terminated, "exitCode");
            } else if (GoValues.bool(st, "ready") && GoValues.at(st, "state", "running").isObject()) {
                hasRunning = true;
                c.ready++;
            }
        }
        if ("Completed".equals(reason) && hasRunning) {
            reason = conditionTrue(pod, "Ready") ? "Running" : "NotReady";
        }
        return reason;
    }

    /** A sidecar: an init container with {@code restartPolicy: Always}. */
    private static boolean restartable(JsonNode initContainer) {
        return initContainer != null && "Always".equals(GoValues.text(initContainer, "restartPolicy"));
    }

    /** Whether the first condition of {@code type} is True (kube looks at the first match only). */
    private static boolean conditionTrue(JsonNode pod, String type) {
        for (JsonNode cond : GoValues.items(pod, "status", "conditions")) {
            if (type.equals(GoValues.text(cond, "type"))) {
                if ("Initialized".equals(type)) {
                    return "True".equals(GoValues.text(cond, "status"));
                }
                if ("True".equals(GoValues.text(cond, "status"))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Instant later(Instant current, Instant candidate) {
        if (candidate == null) {
            return current;
        }
        return current == null || current.isBefore(candidate) ? candidate : current;
    }

    private static final class Counter {
        long restarts;
        long sidecarRestarts;
        int ready;
        Instant lastRestart;
        Instant lastSidecarRestart;
    }
}

package io.kapi.simulation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What a simulated kubelet does next with one Pod bound to its node, from the Pod alone and the time: a
 * new Pod starts at once (init containers completed, containers running, a sandbox with its IP);
 * containers told to run for a while then exit, and the Pod succeeds, fails or restarts them with kubelet's
 * crash-loop back-off as its {@code restartPolicy} says; a deleted Pod's containers stop after its grace
 * period or the simulation's stop delay (the shorter), and the Pod is then removed. Phases and conditions
 * are kubelet's ({@code getPhase}, {@code status/generate.go}).
 */
final class PodStages {

    /** kubelet's {@code MaxContainerBackOff}. */
    static final Duration MAX_BACKOFF = Duration.ofMinutes(5);

    /**
     * The next step.
     *
     * @param status the status to write (the whole of kubelet's part of it), or null to leave it as it is
     * @param delete whether the Pod is to be deleted now (its containers have stopped)
     * @param recheckAt when to look at the Pod again, or null when only a change of the Pod matters
     */
    record Step(ObjectNode status, boolean delete, Instant recheckAt) {
        static final Step NONE = new Step(null, false, null);
    }

    /** Where the Pod runs: the node's address and the IP of the Pod's sandbox. */
    record Placement(String hostIp, String podIp) {
    }

    private final Duration stopDelay;
    private final Duration restartBackoff;
    private final Duration jobRunFor;

    PodStages(SimulationConfig config) {
        this.stopDelay = config.stopDelay();
        this.restartBackoff = config.restartBackoff();
        this.jobRunFor = config.jobRunFor();
    }

    Step next(JsonNode pod, Placement placement, Instant now) {
        JsonNode meta = pod.path("metadata");
        JsonNode status = pod.path("status");
        String phase = status.path("phase").asText("Pending");
        boolean terminal = phase.equals("Succeeded") || phase.equals("Failed");
        boolean started = status.hasNonNull("startTime");
        if (meta.hasNonNull("deletionTimestamp")) {
            if (terminal || !started) {
                return new Step(null, true, null);
            }
            long grace = meta.path("deletionGracePeriodSeconds").asLong(30);
            Instant requested = Instant.parse(meta.path("deletionTimestamp").asText()).minusSeconds(grace);
            Duration stop = Duration.ofSeconds(grace).compareTo(stopDelay) < 0 ? Duration.ofSeconds(grace) : stopDelay;
            Instant stopAt = requested.plus(stop);
            if (now.isBefore(stopAt)) {
                return new Step(null, false, stopAt);
            }
            return new Step(stopped(pod, placement, now), true, null);
        }
        if (terminal) {
            return Step.NONE;
        }
        if (!started) {
            return start(pod, placement, now);
        }
        return advance(pod, placement, now);
    }

    private Step start(JsonNode pod, Placement placement, Instant now) {
        List<ObjectNode> init = new ArrayList<>();
        for (JsonNode c : pod.path("spec").path("initContainers")) {
            init.add(sidecar(c) ? Containers.running(pod, c, now, 0, null, true)
                    : Containers.terminated(pod, c, Containers.exit(pod, c, 0, 0, now, now), 0, null));
        }
        List<ObjectNode> regular = new ArrayList<>();
        boolean ready = Annotations.becomesReady(pod);
        for (JsonNode c : pod.path("spec").path("containers")) {
            regular.add(Containers.running(pod, c, now, 0, null, ready));
        }
        Duration runFor = Annotations.runFor(pod, jobRunFor);
        ObjectNode status = status(pod, placement, "Running", now, now, init, regular);
        return new Step(status, false, runFor == null ? null : now.plus(runFor));
    }

    private Step advance(JsonNode pod, Placement placement, Instant now) {
        Duration runFor = Annotations.runFor(pod, jobRunFor);
        String policy = pod.path("spec").path("restartPolicy").asText("Always");
        int code = Annotations.exitCode(pod);
        boolean ready = Annotations.becomesReady(pod);
        List<ObjectNode> regular = new ArrayList<>();
        Instant recheck = null;
        for (JsonNode c : pod.path("spec").path("containers")) {
            JsonNode current = statusOf(pod.path("status").path("containerStatuses"), c.path("name").asText());
            int restarts = current.path("restartCount").asInt(0);
            JsonNode state = current.path("state");
            JsonNode last = current.path("lastState");
            ObjectNode next;
            Instant at = null;
            if (state.has("running")) {
                Instant startedAt = Instant.parse(state.path("running").path("startedAt").asText());
                Instant exitAt = runFor == null ? null : startedAt.plus(runFor);
                if (exitAt != null && !now.isBefore(exitAt)) {
                    ObjectNode exit = Containers.exit(pod, c, restarts, code, startedAt, exitAt);
                    boolean restart = policy.equals("Always") || (policy.equals("OnFailure") && code != 0);
                    ObjectNode lastState = Json.object();
                    lastState.set("terminated", exit);
                    if (!restart) {
                        next = Containers.terminated(pod, c, exit, restarts, last);
                    } else {
                        Duration backoff = backoff(restarts);
                        if (backoff.isZero()) {
                            next = Containers.running(pod, c, now, restarts + 1, lastState, ready);
                            at = now.plus(runFor);
                        } else {
                            next = Containers.waiting(pod, c, "CrashLoopBackOff", backOffMessage(pod, c, backoff),
                                    restarts, lastState);
                            at = exitAt.plus(backoff);
                        }
                    }
                } else {
                    next = Containers.running(pod, c, startedAt, restarts, last, ready);
                    at = exitAt;
                }
            } else if (state.has("waiting") && last.has("terminated")) {
                Instant restartAt = Instant.parse(last.path("terminated").path("finishedAt").asText())
                        .plus(backoff(restarts));
                if (now.isBefore(restartAt)) {
                    next = ((ObjectNode) current).deepCopy();
                    at = restartAt;
                } else {
                    next = Containers.running(pod, c, now, restarts + 1, last, ready);
                    at = runFor == null ? null : now.plus(runFor);
                }
            } else if (state.has("terminated")) {
                next = ((ObjectNode) current).deepCopy();
            } else {
                next = Containers.running(pod, c, now, restarts, last, ready);
                at = runFor == null ? null : now.plus(runFor);
            }
            regular.add(next);
            if (at != null && (recheck == null || at.isBefore(recheck))) {
                recheck = at;
            }
        }
        List<ObjectNode> init = new ArrayList<>();
        for (JsonNode s : pod.path("status").path("initContainerStatuses")) {
            init.add(((ObjectNode) s).deepCopy());
        }
        Instant startTime = Instant.parse(pod.path("status").path("startTime").asText());
        ObjectNode status = status(pod, placement, phase(regular), startTime, now, init, regular);
        return new Step(status, false, recheck);
    }

    /** Every container stopped (SIGTERM obeyed: exit code 0), as a deleted Pod's are. */
    private ObjectNode stopped(JsonNode pod, Placement placement, Instant now) {
        List<ObjectNode> regular = new ArrayList<>();
        for (JsonNode c : pod.path("spec").path("containers")) {
            JsonNode current = statusOf(pod.path("status").path("containerStatuses"), c.path("name").asText());
            int restarts = current.path("restartCount").asInt(0);
            JsonNode state = current.path("state");
            if (state.has("terminated")) {
                regular.add(((ObjectNode) current).deepCopy());
            } else {
                String started = state.path("running").path("startedAt").asText(ObjectMeta.format(now));
                regular.add(Containers.terminated(pod, c,
                        Containers.exit(pod, c, restarts, 0, Instant.parse(started), now), restarts,
                        current.path("lastState")));
            }
        }
        List<ObjectNode> init = new ArrayList<>();
        for (JsonNode s : pod.path("status").path("initContainerStatuses")) {
            ObjectNode copy = ((ObjectNode) s).deepCopy();
            if (copy.path("state").has("running")) {
                JsonNode c = statusOf(pod.path("spec").path("initContainers"), copy.path("name").asText());
                copy = Containers.terminated(pod, c, Containers.exit(pod, c, copy.path("restartCount").asInt(), 0,
                        Instant.parse(copy.path("state").path("running").path("startedAt").asText()), now),
                        copy.path("restartCount").asInt(), copy.path("lastState"));
            }
            init.add(copy);
        }
        Instant startTime = Instant.parse(pod.path("status").path("startTime").asText());
        return status(pod, placement, phase(regular), startTime, now, init, regular);
    }

    /** kubelet's {@code getPhase} once no container is waiting to start: Running until all have exited. */
    private static String phase(List<ObjectNode> regular) {
        boolean allExited = true;
        boolean allSucceeded = true;
        for (ObjectNode s : regular) {
            JsonNode t = s.path("state").path("terminated");
            allExited &= !t.isMissingNode();
            allSucceeded &= t.path("exitCode").asInt(-1) == 0;
        }
        return !allExited ? "Running" : allSucceeded ? "Succeeded" : "Failed";
    }

    /** kubelet's back-off before restart {@code restarts + 1}: none for the first, then doubling to 5 min. */
    Duration backoff(int restarts) {
        if (restarts == 0) {
            return Duration.ZERO;
        }
        Duration d = restartBackoff.multipliedBy(1L << Math.min(restarts - 1, 20));
        return d.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : d;
    }

    private static String backOffMessage(JsonNode pod, JsonNode container, Duration backoff) {
        JsonNode meta = pod.path("metadata");
        return "back-off %s restarting failed container=%s pod=%s_%s(%s)".formatted(
                io.kapi.machinery.GoDuration.format(backoff), container.path("name").asText(),
                meta.path("name").asText(), meta.path("namespace").asText(), meta.path("uid").asText());
    }

    private ObjectNode status(JsonNode pod, Placement placement, String phase, Instant startTime, Instant now,
                              List<ObjectNode> init, List<ObjectNode> regular) {
        ObjectNode s = Json.object();
        JsonNode generation = pod.path("metadata").path("generation");
        if (generation.isNumber()) {
            s.put("observedGeneration", generation.asLong());
        }
        s.put("phase", phase);
        s.set("conditions", PodConditions.of(pod, phase, init, regular, now));
        s.put("hostIP", placement.hostIp());
        s.putArray("hostIPs").addObject().put("ip", placement.hostIp());
        if (placement.podIp() != null) {
            s.put("podIP", placement.podIp());
            s.putArray("podIPs").addObject().put("ip", placement.podIp());
        }
        s.put("startTime", ObjectMeta.format(startTime));
        if (!init.isEmpty()) {
            ArrayNode a = s.putArray("initContainerStatuses");
            init.forEach(a::add);
        }
        ArrayNode a = s.putArray("containerStatuses");
        regular.forEach(a::add);
        return s;
    }

    static boolean sidecar(JsonNode initContainer) {
        return initContainer.path("restartPolicy").asText("").equals("Always");
    }

    private static JsonNode statusOf(JsonNode list, String name) {
        for (JsonNode s : list) {
            if (s.path("name").asText().equals(name)) {
                return s;
            }
        }
        return Json.object();
    }
}

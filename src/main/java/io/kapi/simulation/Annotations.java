package io.kapi.simulation;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoDuration;
import java.time.Duration;

/**
 * The annotations the simulation reads. On a Node: {@code kapi.dev/simulated: "true"} (or KWOK's
 * {@code kwok.x-k8s.io/node: fake}) hands it to a simulated kubelet. On a Pod, to play a failure path:
 * <ul>
 * <li>{@code kapi.dev/simulate-run-for: 2s}: its containers exit that long after they start (Pods a Job
 * owns do after {@link SimulationConfig#jobRunFor()} unless told);
 * <li>{@code kapi.dev/simulate-exit-code: "1"}: the code they exit with (0 unless told); the Pod fails, or
 * its containers restart in a crash loop when its {@code restartPolicy} says so;
 * <li>{@code kapi.dev/simulate-ready: "false"}: its containers run but never become ready.
 * </ul>
 */
public final class Annotations {

    public static final String SIMULATED = "kapi.dev/simulated";
    public static final String KWOK_NODE = "kwok.x-k8s.io/node";
    public static final String RUN_FOR = "kapi.dev/simulate-run-for";
    public static final String EXIT_CODE = "kapi.dev/simulate-exit-code";
    public static final String READY = "kapi.dev/simulate-ready";

    private Annotations() {
    }

    /** Whether a Node is one the simulation runs. */
    public static boolean simulatedNode(JsonNode node) {
        JsonNode a = node.path("metadata").path("annotations");
        return a.path(SIMULATED).asText("").equals("true") || a.path(KWOK_NODE).asText("").equals("fake");
    }

    /** How long the Pod's containers run before they exit; null: until the Pod is deleted. */
    static Duration runFor(JsonNode pod, Duration jobDefault) {
        String text = pod.path("metadata").path("annotations").path(RUN_FOR).asText("");
        if (!text.isEmpty()) {
            try {
                Duration d = GoDuration.parse(text);
                return d.isNegative() ? Duration.ZERO : d;
            } catch (IllegalArgumentException e) {
                return null;
            }
        }
        boolean job = false;
        for (JsonNode ref : pod.path("metadata").path("ownerReferences")) {
            job |= ref.path("kind").asText().equals("Job") && ref.path("controller").asBoolean(false);
        }
        boolean finishes = !pod.path("spec").path("restartPolicy").asText("Always").equals("Always");
        return job && finishes && jobDefault.isPositive() ? jobDefault : null;
    }

    static int exitCode(JsonNode pod) {
        try {
            return Integer.parseInt(pod.path("metadata").path("annotations").path(EXIT_CODE).asText("0").trim());
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    static boolean becomesReady(JsonNode pod) {
        return !pod.path("metadata").path("annotations").path(READY).asText("").equals("false");
    }
}

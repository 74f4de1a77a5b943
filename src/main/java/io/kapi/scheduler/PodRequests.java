package io.kapi.scheduler;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a Pod asks of a Node, as kube's {@code resource.PodRequests} computes it: the containers' requests
 * summed, with sidecars (init containers with {@code restartPolicy: Always}) added, raised to what each
 * other init container needs while it runs (its requests plus the sidecars started before it), then the
 * Pod's {@code overhead} added; pod-level {@code resources.requests} replace the containers' CPU and
 * memory when set. The "non-zero" variant counts a container without a CPU or memory request as
 * kube's {@code DefaultMilliCPURequest} (100m) and {@code DefaultMemoryRequest} (200Mi), which is what the
 * scoring plugins spread.
 */
final class PodRequests {

    static final long DEFAULT_MILLI_CPU = 100;
    static final long DEFAULT_MEMORY = 200L * 1024 * 1024;

    private PodRequests() {
    }

    static Requests of(JsonNode spec, boolean nonZero) {
        Requests sum = new Requests();
        for (JsonNode c : spec.path("containers")) {
            sum.add(container(c, nonZero), 1);
        }
        Requests sidecars = new Requests();
        Requests initMax = new Requests();
        for (JsonNode c : spec.path("initContainers")) {
            Requests r = container(c, nonZero);
            if (c.path("restartPolicy").asText("").equals("Always")) {
                sum.add(r, 1);
                sidecars.add(r, 1);
                initMax.max(sidecars);
            } else {
                Requests running = r.copy();
                running.add(sidecars, 1);
                initMax.max(running);
            }
        }
        sum.max(initMax);
        JsonNode podLevel = spec.path("resources").path("requests");
        if (podLevel.has("cpu")) {
            sum.milliCpu = Requests.of(podLevel).milliCpu;
        }
        if (podLevel.has("memory")) {
            sum.memory = Requests.of(podLevel).memory;
        }
        if (spec.path("overhead").isObject()) {
            sum.add(Requests.of(spec.path("overhead")), 1);
        }
        sum.pods = 0;
        return sum;
    }

    private static Requests container(JsonNode c, boolean nonZero) {
        JsonNode requests = c.path("resources").path("requests");
        Requests r = Requests.of(requests);
        if (nonZero) {
            if (!requests.has("cpu")) {
                r.milliCpu = DEFAULT_MILLI_CPU;
            }
            if (!requests.has("memory")) {
                r.memory = DEFAULT_MEMORY;
            }
        }
        return r;
    }
}

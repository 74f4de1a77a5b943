package io.kapi.scheduler;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Nodes and Pods for the scheduler's unit tests, written as JSON. */
final class Fixtures {

    private Fixtures() {
    }

    static ObjectNode json(String text) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(text);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    /** A Node with {@code cpu} and {@code memory} allocatable, 110 pods, hostname and zone labels. */
    static NodeInfo node(String name, String cpu, String memory, String zone, String extraSpec) {
        NodeInfo info = new NodeInfo(name);
        info.setNode(json("""
                {"metadata":{"name":"%s","labels":{"kubernetes.io/hostname":"%s","topology.kubernetes.io/zone":"%s"}},
                 "spec":{%s},
                 "status":{"allocatable":{"cpu":"%s","memory":"%s","pods":"110","example.com/gpu":"1"}}}"""
                .formatted(name, name, zone, extraSpec, cpu, memory)));
        return info;
    }

    static NodeInfo node(String name) {
        return node(name, "4", "8Gi", "a", "");
    }

    /** A Pod in namespace "ns" with {@code spec} (JSON members) and labels. */
    static PodInfo pod(String name, String labels, String spec) {
        return PodInfo.of(json("""
                {"metadata":{"name":"%s","namespace":"ns","uid":"uid-%s","labels":{%s}},"spec":{%s}}"""
                .formatted(name, name, labels, spec)));
    }

    static String containers(String cpu, String memory) {
        return """
                "containers":[{"name":"c","image":"i","resources":{"requests":{"cpu":"%s","memory":"%s"}}}]"""
                .formatted(cpu, memory);
    }

    static Cycle cycle(PodInfo pod, NodeInfo... nodes) {
        return new Cycle(pod, List.of(nodes), ns -> Map.of("kubernetes.io/metadata.name", ns), null);
    }

    /** Runs the default profile's preFilter then filter on every Node. */
    static Map<String, Rejection> filter(Cycle cycle) {
        Algorithm algorithm = new Algorithm(Algorithm.DEFAULT_PROFILE);
        Algorithm.DEFAULT_PROFILE.forEach(p -> p.preFilter(cycle));
        Map<String, Rejection> out = new java.util.LinkedHashMap<>();
        for (NodeInfo n : cycle.nodes()) {
            out.put(n.name(), algorithm.filter(cycle, n));
        }
        return out;
    }

    static List<String> fitting(Cycle cycle) {
        List<String> names = new ArrayList<>();
        filter(cycle).forEach((n, r) -> {
            if (r == null) {
                names.add(n);
            }
        });
        return names;
    }
}

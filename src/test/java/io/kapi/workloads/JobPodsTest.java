package io.kapi.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class JobPodsTest {

    private static ObjectNode v(String json) throws Exception {
        return (ObjectNode) Json.MAPPER.readTree(json.replace('\'', '"'));
    }

    @Test
    @DisplayName("a Pod's end: its containers' finishedAt, else Ready turning False, else its deletion, else its creation")
    void finishTime() throws Exception {
        String meta = "'metadata':{'creationTimestamp':'2026-01-01T00:00:00Z','deletionTimestamp':'2026-01-01T00:00:03Z'}";
        assertEquals(Instant.parse("2026-01-01T00:00:05Z"), JobPods.finishTime(v("{" + meta + ",'status':{"
                + "'containerStatuses':[{'state':{'terminated':{'finishedAt':'2026-01-01T00:00:05Z'}}}],"
                + "'conditions':[{'type':'Ready','status':'False','lastTransitionTime':'2026-01-01T00:00:04Z'}]}}")));
        assertEquals(Instant.parse("2026-01-01T00:00:04Z"), JobPods.finishTime(v("{" + meta + ",'status':{"
                + "'conditions':[{'type':'Ready','status':'False','lastTransitionTime':'2026-01-01T00:00:04Z'}]}}")));
        assertEquals(Instant.parse("2026-01-01T00:00:03Z"), JobPods.finishTime(v("{" + meta + "}")));
        assertEquals(Instant.parse("2026-01-01T00:00:00Z"),
                JobPods.finishTime(v("{'metadata':{'creationTimestamp':'2026-01-01T00:00:00Z'}}")));
    }

    private static ObjectNode pod(String name, String index) throws Exception {
        return v("{'metadata':{'name':'" + name + "','annotations':{'batch.kubernetes.io/job-completion-index':'"
                + index + "'}},'status':{'phase':'Pending'}}");
    }

    @Test
    @DisplayName("Indexed: Pods of a repeated, invalid or out-of-range index go first, even when none is asked for")
    void removalOfIndexed() throws Exception {
        List<ObjectNode> active = List.of(pod("a", "0"), pod("b", "1"), pod("c", "1"), pod("d", "x"), pod("e", "7"));
        List<String> removed = JobPods.forRemoval(active, 3, true, 0).stream()
                .map(p -> p.path("metadata").path("name").asText()).sorted().toList();
        assertEquals(3, removed.size());
        assertEquals(List.of("d", "e"), removed.stream().filter(n -> n.equals("d") || n.equals("e")).toList());
        assertEquals(1, removed.stream().filter(n -> n.equals("b") || n.equals("c")).count());
    }
}

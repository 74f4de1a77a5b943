package io.kapi.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class MirroredSlicesTest {

    private static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    @DisplayName("repacking merges subsets of the same ports, sorts by IP, and a ready address wins over not ready")
    void repack() {
        JsonNode subsets = json("""
                [{"addresses":[{"ip":"10.0.0.2"}],"ports":[{"port":80}]},\
                {"addresses":[{"ip":"10.0.0.1"}],"notReadyAddresses":[{"ip":"10.0.0.2"}],"ports":[{"port":80}]}]""");
        assertEquals("[{\"addresses\":[{\"ip\":\"10.0.0.1\"},{\"ip\":\"10.0.0.2\"}],\"ports\":[{\"port\":80}]}]",
                MirroredSlices.repack(subsets).toString());
    }

    @Test
    @DisplayName("at most maxPerSubset addresses per subset, ready first; the rest counted as skipped")
    void maxPerSubset() {
        JsonNode subsets = json("""
                [{"addresses":[{"ip":"10.0.0.1"},{"ip":"10.0.0.2"}],"notReadyAddresses":[{"ip":"10.0.0.3"}],\
                "ports":[{"port":80,"protocol":"TCP"}]}]""");
        MirroredSlices.Desired d = MirroredSlices.desired(subsets, 2);
        assertEquals(1, d.skipped());
        assertEquals(0, d.invalid());
        MirroredSlices.Group g = d.groups().values().iterator().next();
        assertEquals(List.of("10.0.0.1", "10.0.0.2"), List.copyOf(g.endpoints().keySet()));
        assertEquals("[{\"name\":\"\",\"protocol\":\"TCP\",\"port\":80}]", g.ports().toString());
        assertEquals("{\"addresses\":[\"10.0.0.1\"],\"conditions\":{\"ready\":true}}", g.endpoints().get("10.0.0.1")
                .toString());
    }

    @Test
    @DisplayName("IPv4 and IPv6 go to groups of their own; what is not an IP is invalid")
    void families() {
        JsonNode subsets = json("""
                [{"addresses":[{"ip":"10.0.0.1"},{"ip":"fd00::1"},{"ip":"nope"}],"ports":[{"port":80}]}]""");
        MirroredSlices.Desired d = MirroredSlices.desired(subsets, 1000);
        assertEquals(2, d.groups().size());
        assertEquals(1, d.invalid());
        assertEquals(List.of("IPv4", "IPv6"), d.groups().values().stream().map(MirroredSlices.Group::addressType).toList());
    }
}

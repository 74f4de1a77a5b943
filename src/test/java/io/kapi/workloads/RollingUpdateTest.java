package io.kapi.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RollingUpdateTest {

    private static JsonNode deployment(int replicas, String strategy) throws Exception {
        return Json.MAPPER.readTree("{\"spec\":{\"replicas\":%d,\"strategy\":%s}}".formatted(replicas, strategy));
    }

    private static JsonNode v(String json) throws Exception {
        return Json.MAPPER.readTree(json);
    }

    @Test
    @DisplayName("maxSurge rounds up, maxUnavailable rounds down, and both zero means one unavailable")
    void fenceposts() throws Exception {
        assertEquals(new RollingUpdate(1, 0), RollingUpdate.resolve(v("\"25%\""), v("\"25%\""), 3));
        assertEquals(new RollingUpdate(3, 2), RollingUpdate.resolve(v("\"25%\""), v("\"25%\""), 10));
        assertEquals(new RollingUpdate(0, 1), RollingUpdate.resolve(v("0"), v("\"0%\""), 10));
        assertEquals(new RollingUpdate(2, 5), RollingUpdate.resolve(v("2"), v("\"50%\""), 10));
        assertEquals(new RollingUpdate(1, 0), RollingUpdate.resolve(v("null"), v("null"), 1));
    }

    @Test
    @DisplayName("maxUnavailable never exceeds the replicas; Recreate has no surge nor unavailability")
    void bounds() throws Exception {
        JsonNode d = deployment(2, "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":5}}");
        assertEquals(2, RollingUpdate.maxUnavailable(d));
        JsonNode recreate = deployment(4, "{\"type\":\"Recreate\"}");
        assertEquals(0, RollingUpdate.maxUnavailable(recreate));
        assertEquals(0, RollingUpdate.maxSurge(recreate));
    }

    @Test
    @DisplayName("the new ReplicaSet grows by the room the surge leaves, never past the replicas; Recreate goes straight")
    void newReplicas() throws Exception {
        JsonNode d = deployment(3, "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxSurge\":1,\"maxUnavailable\":0}}");
        assertEquals(1, RollingUpdate.newReplicaSetReplicas(d, 3, 0));
        assertEquals(1, RollingUpdate.newReplicaSetReplicas(d, 4, 1), "at 3 + 1 already: no growth");
        assertEquals(3, RollingUpdate.newReplicaSetReplicas(d, 1, 1), "capped at the replicas");
        JsonNode wide = deployment(10, "{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxSurge\":\"30%\"}}");
        assertEquals(3, RollingUpdate.newReplicaSetReplicas(wide, 10, 0));
        assertEquals(5, RollingUpdate.newReplicaSetReplicas(deployment(5, "{\"type\":\"Recreate\"}"), 0, 0));
    }
}

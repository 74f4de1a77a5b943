package io.kapi.machinery.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.machinery.Json;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Patch bodies are parsed with the server's pooled buffers, as every other body is. */
class PatchBodiesBuffersTest {

    @Test
    void patchBodiesGiveTheirBuffersToThePool() throws Exception {
        Json.BUFFERS.clear();
        PatchBodies.Parsed[] parsed = new PatchBodies.Parsed[1];
        Thread.ofVirtual().start(() -> parsed[0] = PatchBodies.parse("{\"data\":{\"k\":\"v\"}}"
                .getBytes(StandardCharsets.UTF_8))).join();
        assertEquals("v", parsed[0].node().path("data").path("k").asText());
        assertTrue(Json.BUFFERS.pooledCount() >= 1, "the parse gave its buffers back to the pool");
    }
}

package io.kapi.machinery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The JSON mapper's buffers come from the server's pool, not from each (virtual) thread. */
class JsonBuffersTest {

    private static final byte[] BODY = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"data\":{\"k\":\"v\"}}"
            .getBytes(StandardCharsets.UTF_8);

    @Test
    void requestsOnVirtualThreadsReuseOneSetOfBuffers() throws Exception {
        Json.BUFFERS.clear();
        runOnVirtualThread(() -> Json.MAPPER.writeValueAsBytes(Json.MAPPER.readTree(BODY)));
        assertTrue(Json.BUFFERS.pooledCount() >= 1, "the set a request used is given back to the pool");

        BufferRecycler pooled = Json.BUFFERS.acquirePooled();
        Json.BUFFERS.releasePooled(pooled);
        AtomicReference<JsonNode> read = new AtomicReference<>();
        runOnVirtualThread(() -> {
            read.set(Json.MAPPER.readTree(BODY));
            BufferRecycler taken = Json.BUFFERS.acquirePooled();
            try {
                assertSame(pooled, taken, "a parse on another virtual thread gave back the same set");
            } finally {
                Json.BUFFERS.releasePooled(taken);
            }
        });
        assertEquals("v", read.get().path("data").path("k").asText());
        assertTrue(Json.BUFFERS.pooledCount() >= 1);
    }

    interface Work {
        void run() throws Exception;
    }

    static void runOnVirtualThread(Work work) throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread.ofVirtual().start(() -> {
            try {
                work.run();
            } catch (Throwable t) {
                failure.set(t);
            }
        }).join();
        if (failure.get() instanceof Exception e) {
            throw e;
        } else if (failure.get() instanceof Error e) {
            throw e;
        }
    }
}

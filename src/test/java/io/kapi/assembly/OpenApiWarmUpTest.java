package io.kapi.assembly;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("OpenAPI warm-up")
class OpenApiWarmUpTest {

    @Test
    @DisplayName("waits while requests keep coming, and goes ahead once none came for the quiet time")
    void awaitsQuiet() throws InterruptedException {
        AtomicLong requests = new AtomicLong();
        AtomicLong reads = new AtomicLong();
        long t0 = System.nanoTime();
        // a request between every two reads for the first five reads, then none
        OpenApiWarmUp.awaitQuiet(() -> reads.incrementAndGet() <= 5 ? requests.incrementAndGet() : requests.get(),
                Duration.ofMillis(20));
        long elapsed = System.nanoTime() - t0;
        assertEquals(6, reads.get(), "read once at first and once after each quiet time");
        assertTrue(elapsed >= Duration.ofMillis(100).toNanos(), "waited out five busy periods: " + elapsed);
    }
}

package io.kapi.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class IdleCollectionTest {

    private static final long S = 1_000_000_000L;

    @Test
    @DisplayName("collects after the idle time without requests, then after twice as long each time while idle")
    void backsOffWhileIdle() {
        AtomicLong requests = new AtomicLong();
        IdleCollection idle = new IdleCollection(requests::get, Duration.ofSeconds(5));
        assertEquals(List.of(5L, 15L, 35L, 75L, 155L, 315L, 635L, 1235L, 1835L), collections(idle, 0, 1900));
    }

    @Test
    @DisplayName("a request starts the count again: busy, never; idle again, 5 s after the last request seen")
    void requestsResetTheCount() {
        AtomicLong requests = new AtomicLong();
        IdleCollection idle = new IdleCollection(requests::get, Duration.ofSeconds(5));
        assertFalse(idle.due(0));
        assertFalse(idle.due(4 * S), "not idle long enough");
        assertTrue(idle.due(5 * S));
        assertFalse(idle.due(10 * S), "the next one after 10 s more");
        requests.incrementAndGet();
        assertFalse(idle.due(11 * S), "a request: busy again");
        assertFalse(idle.due(15 * S));
        assertTrue(idle.due(16 * S), "idle for 5 s since the request was seen");
        for (int t = 17; t < 60; t++) {
            requests.incrementAndGet();
            assertFalse(idle.due(t * S), "requests keep coming: never idle");
        }
    }

    /** The seconds, from {@code from} to {@code to}, at which a collection is due, polled every second. */
    private static List<Long> collections(IdleCollection idle, long from, long to) {
        List<Long> at = new ArrayList<>();
        for (long t = from; t <= to; t++) {
            if (idle.due(t * S)) {
                at.add(t);
            }
        }
        return at;
    }
}

package io.kapi.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class IdleCollectionTest {

    private static final long S = 1_000_000_000L;

    @Test
    @DisplayName("collects once per idle spell: after the idle time without requests, not again until requests came")
    void oncePerIdleSpell() {
        AtomicLong requests = new AtomicLong();
        IdleCollection idle = new IdleCollection(requests::get, Duration.ofSeconds(5));
        assertFalse(idle.due(0));
        assertFalse(idle.due(4 * S), "not idle long enough");
        assertTrue(idle.due(5 * S), "the start's garbage goes back once the server has been idle");
        assertFalse(idle.due(10 * S), "not again while the server stays idle");
        assertFalse(idle.due(60 * S));
        requests.incrementAndGet();
        assertFalse(idle.due(61 * S), "a request: busy again");
        assertFalse(idle.due(65 * S));
        assertTrue(idle.due(66 * S), "idle again for 5 s since the request was seen");
        requests.addAndGet(3);
        assertFalse(idle.due(67 * S));
        requests.incrementAndGet();
        assertFalse(idle.due(71 * S), "requests keep coming: never idle");
        assertFalse(idle.due(75 * S));
        assertTrue(idle.due(76 * S));
    }
}

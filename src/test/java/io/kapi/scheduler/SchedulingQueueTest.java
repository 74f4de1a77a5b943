package io.kapi.scheduler;

import static io.kapi.scheduler.Fixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("scheduling queue")
final class SchedulingQueueTest {

    private final AtomicLong now = new AtomicLong();
    private final SchedulingQueue queue = new SchedulingQueue(now::get);

    @Test
    @DisplayName("the highest priority first, then the first queued")
    void order() throws InterruptedException {
        queue.add(pod("a", "", "\"priority\":1"));
        queue.add(pod("b", "", "\"priority\":5"));
        queue.add(pod("c", "", "\"priority\":1"));
        assertEquals("b", queue.pop(Duration.ZERO).pod.name());
        assertEquals("a", queue.pop(Duration.ZERO).pod.name());
        assertEquals("c", queue.pop(Duration.ZERO).pod.name());
        assertNull(queue.pop(Duration.ZERO));
    }

    @Test
    @DisplayName("backoff doubles from 1s up to 10s")
    void backoff() {
        assertEquals(Duration.ofSeconds(1), SchedulingQueue.backoffFor(1));
        assertEquals(Duration.ofSeconds(2), SchedulingQueue.backoffFor(2));
        assertEquals(Duration.ofSeconds(8), SchedulingQueue.backoffFor(4));
        assertEquals(Duration.ofSeconds(10), SchedulingQueue.backoffFor(5));
        assertEquals(Duration.ofSeconds(10), SchedulingQueue.backoffFor(30));
    }

    @Test
    @DisplayName("an unschedulable Pod waits for a cluster event, then for the end of its backoff")
    void unschedulable() throws InterruptedException {
        queue.add(pod("a", "", ""));
        SchedulingQueue.Entry e = queue.pop(Duration.ZERO);
        queue.failed(e, false);
        assertTrue(queue.isUnschedulable("ns/a"));
        assertNull(queue.pop(Duration.ZERO));
        queue.moveAllToActiveOrBackoff();
        assertNull(queue.pop(Duration.ZERO), "still backing off");
        now.addAndGet(Duration.ofSeconds(1).toNanos());
        assertEquals("a", queue.pop(Duration.ZERO).pod.name());
    }

    @Test
    @DisplayName("a cluster event during the attempt sends the Pod to backoff, not among the unschedulable")
    void eventDuringAttempt() throws InterruptedException {
        queue.add(pod("a", "", ""));
        SchedulingQueue.Entry e = queue.pop(Duration.ZERO);
        queue.moveAllToActiveOrBackoff();
        queue.failed(e, false);
        now.addAndGet(Duration.ofSeconds(1).toNanos());
        assertEquals("a", queue.pop(Duration.ZERO).pod.name());
    }

    @Test
    @DisplayName("a failed attempt (an error, a refused binding) goes to backoff and comes back alone; a deleted Pod does not")
    void error() throws InterruptedException {
        queue.add(pod("a", "", ""));
        SchedulingQueue.Entry e = queue.pop(Duration.ZERO);
        queue.failed(e, true);
        assertNull(queue.pop(Duration.ZERO));
        now.addAndGet(Duration.ofSeconds(1).toNanos());
        SchedulingQueue.Entry again = queue.pop(Duration.ZERO);
        assertEquals("a", again.pod.name());
        assertEquals(2, again.attempts);
        queue.delete("ns/a");
        queue.failed(again, true);
        now.addAndGet(Duration.ofSeconds(10).toNanos());
        assertNull(queue.pop(Duration.ZERO));
        assertEquals(0, queue.size());
    }
}

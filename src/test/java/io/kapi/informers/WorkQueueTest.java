package io.kapi.informers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class WorkQueueTest {

    @Test
    @DisplayName("a key added twice while waiting is handed out once")
    void deduplicates() throws InterruptedException {
        WorkQueue<String> q = new WorkQueue<>("t");
        q.add("a");
        q.add("b");
        q.add("a");
        assertEquals(2, q.length());
        assertEquals("a", q.take());
        assertEquals("b", q.take());
        q.shutDown();
    }

    @Test
    @DisplayName("a key added while worked on is handed out again only once done")
    void serializesPerKey() throws InterruptedException {
        WorkQueue<String> q = new WorkQueue<>("t");
        q.add("a");
        assertEquals("a", q.take());
        q.add("a");
        assertEquals(0, q.length(), "not handed to a second worker while the first holds it");
        q.done("a");
        assertEquals(1, q.length());
        assertEquals("a", q.take());
        q.done("a");
        q.shutDown();
        assertNull(q.take());
    }

    @Test
    @DisplayName("rate-limited adds back off exponentially until forgotten")
    void backsOff() throws InterruptedException {
        WorkQueue<String> q = new WorkQueue<>("t");
        long start = System.nanoTime();
        q.addRateLimited("a");
        q.addRateLimited("a");
        q.addRateLimited("a"); // 5, 10, 20 ms: the key comes back once, after at least 5 ms
        assertEquals("a", q.take());
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(5));
        assertEquals(3, q.failures("a"));
        q.forget("a");
        assertEquals(0, q.failures("a"));
        q.done("a");
        q.shutDown();
        WorkQueue<String> later = new WorkQueue<>("t");
        later.addAfter("b", Duration.ofMillis(30));
        assertEquals(0, later.length());
        assertEquals("b", later.take());
        later.shutDown();
    }
}

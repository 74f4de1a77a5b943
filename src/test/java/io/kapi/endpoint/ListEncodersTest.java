package io.kapi.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ListEncodersTest {

    @Test
    @DisplayName("a small list is written by the request's thread, a large one by an encoder platform thread")
    void whereWritten() throws Exception {
        try (ListEncoders encoders = new ListEncoders(2, Duration.ofSeconds(10))) {
            AtomicReference<Thread> writer = new AtomicReference<>();
            Thread request = Thread.ofVirtual().start(() -> {
                try {
                    encoders.encode(ListEncoders.LARGE_ITEMS - 1, () -> writer.set(Thread.currentThread()));
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            });
            request.join();
            assertSame(request, writer.get());

            AtomicInteger policy = new AtomicInteger(-100);
            encoders.encode(10_000, () -> {
                writer.set(Thread.currentThread());
                policy.set(BackgroundPriorityTest.policyOfCurrentThread());
            });
            assertFalse(writer.get().isVirtual());
            assertTrue(writer.get().getName().startsWith("kapi-list-encoder-"), writer.get().getName());
            assertEquals(BackgroundPriority.SCHED_IDLE, policy.get(), "encoders run at the background priority");
        }
    }

    @Test
    @DisplayName("the writer's IOException reaches the request")
    void failure() {
        try (ListEncoders encoders = new ListEncoders(1, Duration.ofSeconds(10))) {
            IOException e = assertThrows(IOException.class, () -> encoders.encode(5_000, () -> {
                throw new IOException("client gone");
            }));
            assertEquals("client gone", e.getMessage());
        }
    }

    @Test
    @DisplayName("large lists take turns; one whose turn does not come in time is written by its own thread")
    void turns() throws Exception {
        try (ListEncoders encoders = new ListEncoders(1, Duration.ofMillis(300))) {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch firstWriting = new CountDownLatch(1);
            Thread first = Thread.ofVirtual().start(() -> {
                try {
                    encoders.encode(5_000, () -> {
                        firstWriting.countDown();
                        try {
                            release.await(10, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    });
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            });
            assertTrue(firstWriting.await(5, TimeUnit.SECONDS));
            AtomicReference<Thread> second = new AtomicReference<>();
            long t0 = System.nanoTime();
            encoders.encode(5_000, () -> second.set(Thread.currentThread()));
            assertSame(Thread.currentThread(), second.get(), "the only encoder is busy: written here after the wait");
            assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(300), "after waiting its turn");
            release.countDown();
            first.join();
        }
    }

    @Test
    @DisplayName("a large list of a request's virtual thread whose turn does not come is written by a platform thread, not on a carrier")
    void lateTurnOffCarrier() throws Exception {
        try (ListEncoders encoders = new ListEncoders(1, Duration.ofMillis(100))) {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch firstWriting = new CountDownLatch(1);
            Thread first = Thread.ofVirtual().start(() -> {
                try {
                    encoders.encode(5_000, () -> {
                        firstWriting.countDown();
                        try {
                            release.await(10, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    });
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            });
            assertTrue(firstWriting.await(5, TimeUnit.SECONDS));
            AtomicReference<Thread> writer = new AtomicReference<>();
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread request = Thread.ofVirtual().start(() -> {
                try {
                    encoders.encode(5_000, () -> writer.set(Thread.currentThread()));
                    encoders.encode(5_000, () -> {
                        throw new IOException("client gone");
                    });
                } catch (IOException e) {
                    failed.set(e);
                }
            });
            request.join(5_000);
            assertFalse(writer.get().isVirtual(), "written by " + writer.get());
            assertEquals("client gone", failed.get().getMessage(), "its failure reaches the request");
            release.countDown();
            first.join();
        }
    }
}

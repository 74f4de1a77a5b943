package io.kapi.server;

import io.kapi.health.HealthCheck;
import io.kapi.health.NamedCheck;
import io.kapi.health.PostStartHook;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs each post-start hook once the server listens, each on its own virtual thread, retrying a hook
 * that throws after a back-off (0.1 s doubling up to 30 s) until it returns or the server stops.
 * Each hook has the health check {@code poststarthook/{name}}, failing until the hook has returned.
 */
final class PostStartHooks {

    private static final System.Logger LOG = System.getLogger(PostStartHooks.class.getName());
    private static final Duration FIRST_RETRY = Duration.ofMillis(100);
    private static final Duration MAX_RETRY = Duration.ofSeconds(30);

    private final List<Entry> entries;
    private final List<Thread> threads = new ArrayList<>();
    private final CountDownLatch finished;

    private record Entry(PostStartHook hook, AtomicBoolean done) {
    }

    PostStartHooks(List<PostStartHook> hooks) {
        this.entries = hooks.stream().map(h -> new Entry(h, new AtomicBoolean())).toList();
        this.finished = new CountDownLatch(entries.size());
    }

    /** Waits until every hook has returned; false when {@code timeout} passed first. */
    boolean await(Duration timeout) throws InterruptedException {
        return finished.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    List<HealthCheck> checks() {
        return entries.stream().<HealthCheck>map(e -> new NamedCheck(PostStartHook.PREFIX + e.hook().name(), () -> {
            if (!e.done().get()) {
                throw new IllegalStateException("not finished");
            }
        })).toList();
    }

    synchronized void start() {
        for (Entry e : entries) {
            threads.add(Thread.ofVirtual().name(PostStartHook.PREFIX + e.hook().name()).start(() -> {
                if (run(e)) {
                    finished.countDown();
                }
            }));
        }
    }

    synchronized void stop() {
        threads.forEach(Thread::interrupt);
    }

    /** Runs the hook until it returns (true) or the server stops (false). */
    private static boolean run(Entry e) {
        Duration wait = FIRST_RETRY;
        long begin = System.nanoTime();
        while (!Thread.currentThread().isInterrupted()) {
            try {
                e.hook().run();
                e.done().set(true);
                LOG.log(Level.DEBUG, "post-start hook {0} finished in {1} ms", e.hook().name(),
                        (System.nanoTime() - begin) / 1_000_000);
                return true;
            } catch (InterruptedException x) {
                return false;
            } catch (Exception x) {
                LOG.log(Level.WARNING, "post-start hook " + e.hook().name() + " failed; retrying in " + wait, x);
            }
            try {
                Thread.sleep(wait);
            } catch (InterruptedException x) {
                return false;
            }
            wait = wait.multipliedBy(2).compareTo(MAX_RETRY) > 0 ? MAX_RETRY : wait.multipliedBy(2);
        }
        return false;
    }
}

package io.kapi.testing;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kapi.fixtures.Await;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/** Checks that a server left nothing behind: threads, a listening port, its temporary directory. */
final class Cleanup {

    /**
     * Threads the client libraries keep for the whole JVM whatever is closed, not started by Kapi or the
     * extension: the JDK's shared pools, and fabric8's Vert.x client's shared event loop and its blocked-
     * thread checker (one Vert.x instance per JVM, by fabric8's design).
     */
    private static final List<String> JVM_WIDE = List.of("ForkJoinPool.commonPool-", "Common-Cleaner",
            "process reaper", "Attach Listener", "vert.x-eventloop-thread-", "vertx-blocked-thread-checker",
            "vert.x-internal-blocking-", "vert.x-worker-thread-", "OkHttp TaskRunner", "Okio Watchdog",
            "surefire-forkedjvm-", "junit-");

    private Cleanup() {
    }

    /** The port of {@code url} no longer accepts connections, and {@code dir} is gone. */
    static void assertStopped(String url, Path dir) {
        assertFalse(listening(url), url + " still accepts connections");
        assertFalse(Files.exists(dir), dir + " still exists");
    }

    static boolean listening(String url) {
        URI uri = URI.create(url);
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 2000);
            return true;
        } catch (ConnectException e) {
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    /** The server directories under java.io.tmpdir now. */
    static Set<Path> leftDirectories() {
        try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return new HashSet<>(files.filter(p -> p.getFileName().toString().startsWith("kapi-")).toList());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** What existed before a run. */
    record Before(Set<Long> threads, Set<Path> directories) {

        /** Waits (up to 30 s: threads end asynchronously) until only what existed before is left. */
        void assertNothingLeft(String url) {
            List<String> extra = Await.atMost(Duration.ofSeconds(30)).every(Duration.ofMillis(50))
                    .poll(this::newThreads, List::isEmpty);
            assertTrue(extra.isEmpty(), "threads left: " + extra);
            Set<Path> dirs = leftDirectories();
            dirs.removeAll(directories);
            assertTrue(dirs.isEmpty(), "temporary directories left: " + dirs);
            assertFalse(listening(url), url + " still accepts connections");
        }

        private List<String> newThreads() {
            return Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.isAlive() && !threads.contains(t.threadId()))
                    .map(Thread::getName)
                    .filter(name -> JVM_WIDE.stream().noneMatch(name::startsWith))
                    .sorted().toList();
        }
    }

    static Before before() {
        Set<Long> ids = new HashSet<>();
        Thread.getAllStackTraces().keySet().forEach(t -> ids.add(t.threadId()));
        return new Before(ids, leftDirectories());
    }
}

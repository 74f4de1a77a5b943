package io.kapi.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A kubectl command left running while the test acts ({@code get -w}, {@code wait}), its output read line by
 * line as it comes. It runs with {@code -v=6}, so that its standard error logs each response as its headers
 * arrive ({@code round_trippers.go] GET https://...?...watch=true... 200 OK in 12 milliseconds}):
 * {@link #awaitWatching()} waits for that line of its watch request, the moment the server has the watch
 * registered. From then on a change the test makes reaches the command: the readiness signal instead of a
 * guessed sleep before acting. (kubectl's informers watch from the resourceVersion of their list, so a
 * change made between the list and the watch would reach it too; the watch's response is simply the
 * last step of the command's start.)
 */
final class BackgroundKubectl implements AutoCloseable {

    /** kubectl's log line of a watch response that arrived: {@code GET <url with watch=true> 200 OK in ...}. */
    private static final Pattern WATCH_OPEN = Pattern.compile("round_trippers\\.go:\\d+\\] GET \\S*[?&]watch=true\\S* 200 OK");

    private final String command;
    private final Process process;
    private final Output stdout;
    private final Output stderr;

    private BackgroundKubectl(String command, Process process) {
        this.command = command;
        this.process = process;
        this.stdout = new Output(process.getInputStream());
        this.stderr = new Output(process.getErrorStream());
    }

    /** Starts {@code kubectl ARGS -v=6} with the kubeconfig and cache directory of {@code kubectl}. */
    static BackgroundKubectl start(Kubectl kubectl, String... args) {
        List<String> cmd = new ArrayList<>(List.of(kubectl.binary().toString(), "--kubeconfig=" + kubectl.kubeconfig(),
                "--cache-dir=" + kubectl.cacheDir()));
        cmd.addAll(List.of(args));
        cmd.add("-v=6");
        try {
            return new BackgroundKubectl(String.join(" ", args), new ProcessBuilder(cmd).start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + cmd, e);
        }
    }

    /** Waits (up to 30 s) until the command's watch request has been answered, its events about to flow. */
    void awaitWatching() throws InterruptedException {
        if (stderr.awaitLine(l -> WATCH_OPEN.matcher(l).find(), Duration.ofSeconds(30)) == null) {
            throw new AssertionError("kubectl " + command + ": no watch open within 30 s; exited: " + !process.isAlive()
                    + "\nstdout: " + stdout.text() + "\nstderr: " + stderr.text());
        }
    }

    /** Whether a line of standard output starting with {@code prefix} comes within 30 s (lines before it are consumed). */
    boolean awaitLine(String prefix) throws InterruptedException {
        return stdout.awaitLine(l -> l.startsWith(prefix), Duration.ofSeconds(30)) != null;
    }

    /** Waits for the command to exit and its output to be read; false if it is still running after {@code timeout}. */
    boolean awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            return false;
        }
        stdout.reader.join();
        stderr.reader.join();
        return true;
    }

    int exitValue() {
        return process.exitValue();
    }

    /** Everything the command wrote to standard output so far. */
    String stdout() {
        return stdout.text();
    }

    /** Everything the command wrote to standard error so far (with its {@code -v=6} log). */
    String stderr() {
        return stderr.text();
    }

    @Override
    public void close() {
        process.destroy();
    }

    /** One output stream: every line kept, and queued for {@link #awaitLine}. */
    private static final class Output {

        private final StringBuffer text = new StringBuffer();
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final Thread reader;

        Output(InputStream in) {
            reader = Thread.ofVirtual().start(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        text.append(line).append('\n');
                        lines.add(line);
                    }
                } catch (IOException e) {
                    // the process ended
                }
            });
        }

        String awaitLine(java.util.function.Predicate<String> match, Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            for (long left = timeout.toNanos(); left > 0; left = deadline - System.nanoTime()) {
                String line = lines.poll(Math.min(left, TimeUnit.MILLISECONDS.toNanos(200)), TimeUnit.NANOSECONDS);
                if (line != null && match.test(line)) {
                    return line;
                }
            }
            return null;
        }

        String text() {
            return text.toString();
        }
    }
}

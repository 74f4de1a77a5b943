package io.kapi.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real Kapi server as a child process: {@code bin/kapi --secure-port=PORT --bind-address=127.0.0.1
 * --data-dir=DIR [extra args]}, its output going to a log file. One instance owns one data directory and
 * one port for its whole life, across {@link #restart() restarts} and {@link #kill() kill -9}s.
 *
 * <p>{@link #start()} returns only once {@code /readyz} answers {@code ok} (HTTPS, verified with the CA
 * of the generated {@code admin.kubeconfig}), and fails with the log's tail if the process exits or the
 * deadline passes. Not thread-safe: one test thread drives it.
 */
public final class KapiProcess implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(KapiProcess.class.getName());
    private static final List<KapiProcess> LIVE = new CopyOnWriteArrayList<>();
    private static final java.util.Set<Path> BUILT = new java.util.HashSet<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(KapiProcess::kill)));
    }

    private final String name;
    private final Path projectDir;
    private final Path dataDir;
    private final boolean ownsDataDir;
    private final Path logDir;
    private final int port;
    private final List<String> extraArgs;
    private final Duration readyTimeout;
    private Process process;
    private Path logFile;
    private int starts;
    private Duration lastStartToReady = Duration.ZERO;
    private String javaOptions = "";
    /** The CPU ticks of each JIT compiler thread of this life of the server, by thread id, as last read. */
    private final Map<String, Long> compilerTicks = new HashMap<>();

    /**
     * @param name names the log files ({@code NAME-1.log}, {@code NAME-2.log} after a restart, ...)
     * @param extraArgs further server flags, e.g. {@code --storage-backend=memory}
     */
    public KapiProcess(String name, List<String> extraArgs) {
        this(name, Path.of(System.getProperty("kapi.e2e.projectDir", "")), extraArgs, null);
    }

    /**
     * A server on a given data directory, e.g. one that several replicas of one cluster share (they
     * need the same CA, serving certificate and service-account keys); the caller deletes it.
     *
     * @param sharedDataDir the data directory, or null for a fresh one this instance owns
     */
    public KapiProcess(String name, List<String> extraArgs, Path sharedDataDir) {
        this(name, Path.of(System.getProperty("kapi.e2e.projectDir", "")), extraArgs, sharedDataDir);
    }

    /** A server of the checkout at {@code projectDir} (benchmarks compare two builds side by side). */
    public KapiProcess(String name, Path projectDir, List<String> extraArgs) {
        this(name, projectDir, extraArgs, null);
    }

    private KapiProcess(String name, Path projectDir, List<String> extraArgs, Path sharedDataDir) {
        this.name = name;
        this.ownsDataDir = sharedDataDir == null;
        this.projectDir = projectDir.toAbsolutePath();
        this.logDir = Path.of(System.getProperty("kapi.e2e.logDir", projectDir.resolve("target/e2e-logs").toString()));
        this.extraArgs = List.copyOf(extraArgs);
        this.readyTimeout = Duration.ofSeconds(Long.getLong("kapi.e2e.readyTimeoutSeconds", 90));
        this.port = freePort();
        try {
            Files.createDirectories(logDir);
            Path dataRoot = Files.createDirectories(projectDir.resolve("target/e2e-data"));
            this.dataDir = sharedDataDir != null ? sharedDataDir : Files.createTempDirectory(dataRoot, name + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Extra JVM options for the server's next starts ({@code KAPI_JAVA_OPTS}, which {@code bin/kapi} puts last,
     * so they override its own): benchmarks compare JVM settings on one checkout.
     */
    public KapiProcess withJavaOptions(String options) {
        this.javaOptions = options;
        return this;
    }

    /** Starts the server and waits until it is ready. */
    public KapiProcess start() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("already running: " + name);
        }
        ensureBuilt(projectDir, logDir);
        for (int attempt = 1; ; attempt++) {
            long t0 = System.nanoTime();
            spawn();
            if (awaitReady(attempt == 1)) {
                lastStartToReady = Duration.ofNanos(System.nanoTime() - t0);
                LOG.log(System.Logger.Level.INFO, "{0} ready on port {1} in {2} ms", name, String.valueOf(port),
                        String.valueOf(lastStartToReady.toMillis()));
                return this;
            }
            LOG.log(System.Logger.Level.WARNING, "{0}: killed by a signal nobody here sent (exit {1}) while starting; "
                    + "someone else on this machine is killing servers. Starting once more.", name,
                    String.valueOf(process.exitValue()));
            LIVE.remove(this);
        }
    }

    private void spawn() {
        starts++;
        synchronized (this) {
            compilerTicks.clear();
        }
        logFile = logDir.resolve(name + "-" + starts + ".log");
        List<String> command = new ArrayList<>(List.of(projectDir.resolve("bin/kapi").toString(),
                "--secure-port=" + port, "--bind-address=127.0.0.1", "--data-dir=" + dataDir));
        command.addAll(extraArgs);
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(projectDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(logFile.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        builder.environment().putIfAbsent("JAVA_HOME", "/usr/lib/jvm/temurin-25-jdk-amd64");
        if (!javaOptions.isBlank()) {
            builder.environment().put("KAPI_JAVA_OPTS", javaOptions);
        }
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        }
        LIVE.add(this);
    }

    /** Graceful stop (SIGTERM, then SIGKILL after 20 s), then start again on the same port and data. */
    public KapiProcess restart() {
        stop();
        return start();
    }

    /** SIGTERM to the server (and its launcher), SIGKILL if it has not exited within 20 s. Idempotent. */
    public void stop() {
        if (process == null) {
            return;
        }
        List<ProcessHandle> all = tree();
        all.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        for (ProcessHandle p : all) {
            long left = deadline - System.nanoTime();
            try {
                p.onExit().get(Math.max(left, 1), TimeUnit.NANOSECONDS);
            } catch (Exception timeoutOrInterrupt) {
                LOG.log(System.Logger.Level.WARNING, "{0}: pid {1} ignored SIGTERM, killing", name, p.pid());
                p.destroyForcibly();
            }
        }
        finish();
    }

    /**
     * SIGTERM to the server process alone, as an init system or kubelet sends it, then waits for it to
     * exit (SIGKILL after {@code timeout}).
     *
     * @return the exit code, or -1 if it had to be killed
     */
    public int terminate(Duration timeout) {
        process.destroy();
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.log(System.Logger.Level.WARNING, "{0}: no exit {1} s after SIGTERM, killing", name,
                        timeout.toSeconds());
                kill();
                return -1;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        finish();
        return process.exitValue();
    }

    /** {@code kill -9} of the server and its launcher, at once, no shutdown hooks. Idempotent. */
    public void kill() {
        if (process == null) {
            return;
        }
        List<ProcessHandle> all = tree();
        all.forEach(ProcessHandle::destroyForcibly);
        all.forEach(p -> p.onExit().join());
        finish();
    }

    /** Stops the server and deletes its data directory; the logs stay. */
    @Override
    public void close() {
        stop();
        if (ownsDataDir) {
            deleteTree(dataDir);
        }
    }

    /** Deletes a directory tree, best effort (a warning if something stays). */
    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot delete {0}: {1}", dir, e);
        }
    }

    public int port() {
        return port;
    }

    public Path dataDir() {
        return dataDir;
    }

    public Path kubeconfigPath() {
        return dataDir.resolve("admin.kubeconfig");
    }

    /** The admin kubeconfig, pointed at this server (the file may name another replica of a shared data dir). */
    public Kubeconfig kubeconfig() {
        Kubeconfig file = Kubeconfig.load(kubeconfigPath());
        return new Kubeconfig(java.net.URI.create("https://127.0.0.1:" + port), file.caPem(), file.clientCertPem(),
                file.clientKeyPem());
    }

    /** The log of the latest start (null before the first). */
    public Path logFile() {
        return logFile;
    }

    /** Wall time from spawning the process to the first {@code /readyz} answering {@code ok}. */
    public Duration lastStartToReady() {
        return lastStartToReady;
    }

    /** The pid of the server JVM: the deepest live {@code java} process in the tree, else the root. */
    public long serverPid() {
        return tree().stream()
                .filter(p -> p.info().command().map(c -> c.endsWith("/java") || c.endsWith("java")).orElse(false))
                .reduce((first, second) -> second)
                .map(ProcessHandle::pid)
                .orElse(process.pid());
    }

    /** VmRSS of the server JVM in KiB, read from /proc. */
    public long rssKiB() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + serverPid() + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new IllegalStateException("no VmRSS for pid " + serverPid());
    }

    /** CPU time the server JVM has used so far (user and system), in seconds, read from /proc. */
    public double cpuSeconds() {
        try {
            return cpuTicks(Files.readString(Path.of("/proc/" + serverPid() + "/stat"))) / 100.0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * CPU time the server JVM's JIT compiler threads ({@code C1 CompilerThread*}, {@code C2 CompilerThread*})
     * have used so far, in seconds, read from /proc: a part of {@link #cpuSeconds()}. The JVM stops a compiler
     * thread when its queue is short; such a thread's time is counted up to this method's last call before it
     * ended, so call it at the edges of what is measured and the figure never goes back.
     */
    public synchronized double compilerCpuSeconds() {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + serverPid() + "/task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    if (comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")) {
                        compilerTicks.put(task.getFileName().toString(), cpuTicks(stat));
                    }
                } catch (IOException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return compilerTicks.values().stream().mapToLong(Long::longValue).sum() / 100.0;
    }

    /** utime + stime of a /proc {@code stat} line (a process's or a thread's), in USER_HZ ticks (100 a second). */
    private static long cpuTicks(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /** Percent of one core the server used over the next {@code seconds} (the caller waits them). */
    public double cpuPercentOver(int seconds) throws InterruptedException {
        double before = cpuSeconds();
        long t0 = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        return (cpuSeconds() - before) / ((System.nanoTime() - t0) / 1e9) * 100;
    }

    /** The last {@code lines} lines of the latest log, for failure messages. */
    public String logTail(int lines) {
        if (logFile == null || !Files.exists(logFile)) {
            return "(no log)";
        }
        try {
            List<String> all = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(cannot read " + logFile + ": " + e + ")";
        }
    }

    /**
     * Once per JVM, before the first server starts: {@code bin/kapi --help}, which builds the project when
     * it is stale and exits. So no server start pays (or races on) a build inside its readiness deadline.
     */
    private static synchronized void ensureBuilt(Path projectDir, Path logDir) {
        if (BUILT.contains(projectDir)) {
            return;
        }
        Path log = logDir.resolve("build.log");
        try {
            Process p = new ProcessBuilder(projectDir.resolve("bin/kapi").toString(), "--help")
                    .directory(projectDir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!p.waitFor(15, TimeUnit.MINUTES)) {
                p.destroyForcibly().waitFor();
                throw new AssertionError("bin/kapi --help (build) did not finish in 15 min; see " + log);
            }
            if (p.exitValue() != 0) {
                throw new AssertionError("bin/kapi --help failed (exit " + p.exitValue() + "):\n" + Files.readString(log));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        BUILT.add(projectDir);
    }

    /**
     * Polls /readyz until ok. Returns false (instead of failing) only when {@code mayRetry} and the process
     * died of SIGTERM or SIGKILL, which this harness had not sent: on a shared machine, another developer's
     * clean-up. Fails with the log's tail on any other exit or at the deadline.
     */
    private boolean awaitReady(boolean mayRetry) {
        long deadline = System.nanoTime() + readyTimeout.toNanos();
        HttpClient http = null;
        HttpRequest readyz = null;
        String last = "admin.kubeconfig not written yet";
        try {
            while (System.nanoTime() < deadline) {
                if (!process.isAlive()) {
                    int code = process.exitValue();
                    if (mayRetry && (code == 143 || code == 137)) {
                        return false;
                    }
                    throw startFailure("exited with code " + code);
                }
                if (http == null && Files.exists(kubeconfigPath())) {
                    try {
                        Kubeconfig kubeconfig = kubeconfig();
                        http = HttpClient.newBuilder().sslContext(kubeconfig.anonymousSslContext())
                                .connectTimeout(Duration.ofSeconds(2)).build();
                        // this server's own port: replicas sharing a data dir share one kubeconfig
                        readyz = HttpRequest.newBuilder(java.net.URI.create("https://127.0.0.1:" + port + "/readyz"))
                                .timeout(Duration.ofSeconds(5)).build();
                    } catch (RuntimeException partiallyWritten) {
                        last = "kubeconfig unreadable: " + partiallyWritten;
                    }
                }
                if (http != null) {
                    try {
                        HttpResponse<String> r = http.send(readyz, HttpResponse.BodyHandlers.ofString());
                        if (r.statusCode() == 200 && r.body().trim().equals("ok")) {
                            return true;
                        }
                        last = "/readyz answered " + r.statusCode() + ": " + r.body();
                    } catch (IOException notYetListening) {
                        last = "/readyz: " + notYetListening;
                    }
                }
                Thread.sleep(50);
            }
            throw startFailure("not ready within " + readyTimeout.toSeconds() + " s; last: " + last);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw startFailure("interrupted");
        } finally {
            if (http != null) {
                http.close();
            }
        }
    }

    private AssertionError startFailure(String why) {
        String tail = logTail(80);
        kill();
        return new AssertionError("Kapi '" + name + "' (port " + port + ", data " + dataDir + ") " + why
                + "\n--- " + logFile + " (tail) ---\n" + tail + "\n---");
    }

    private List<ProcessHandle> tree() {
        List<ProcessHandle> all = new ArrayList<>();
        all.add(process.toHandle());
        process.descendants().forEach(all::add);
        return all;
    }

    private void finish() {
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LIVE.remove(this);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.kapi.storage.etcd;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real etcd (Debian's {@code etcd-server}, which {@code bin/test} installs when missing) for a test
 * class: one member or a cluster of several, on free loopback ports, in a temporary directory (on
 * {@code /dev/shm} when there is one, so that fsync is cheap on a busy CI machine), started before the
 * class's first test and stopped, with its data deleted, after the last. Members can be stopped and
 * started again to test failures. Logs go to {@code target/etcd-logs}.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final EtcdCluster ETCD = EtcdCluster.members(3);
 * ... EtcdConfig.of(ETCD.endpoints()) ...
 * }</pre>
 */
public final class EtcdCluster implements BeforeAllCallback, AfterAllCallback {

    private static final System.Logger LOG = System.getLogger(EtcdCluster.class.getName());
    /** Starts tried when a member lost a port it was given to another process meanwhile. */
    private static final int START_ATTEMPTS = 3;

    private final int size;
    private final List<Member> members = new ArrayList<>();
    private final List<String> extraArgs;
    private final String scheme;
    private final String token = "kapi-" + UUID.randomUUID();
    private Path dir;
    private String name;

    private EtcdCluster(int size, List<String> extraArgs, String scheme) {
        this.size = size;
        this.extraArgs = extraArgs;
        this.scheme = scheme;
    }

    public static EtcdCluster single() {
        return new EtcdCluster(1, List.of(), "http");
    }

    public static EtcdCluster members(int size) {
        return new EtcdCluster(size, List.of(), "http");
    }

    /**
     * A single member serving clients over TLS with {@code cert}/{@code key}, requiring client
     * certificates signed by {@code ca}.
     */
    public static EtcdCluster tls(Path ca, Path cert, Path key) {
        return new EtcdCluster(1, List.of("--cert-file", cert.toString(), "--key-file", key.toString(),
                "--trusted-ca-file", ca.toString(), "--client-cert-auth"), "https");
    }

    /** One member: its name, ports and process. */
    private static final class Member {
        final String name;
        final int clientPort;
        final int peerPort;
        final int metricsPort;
        Process process;

        Member(String name, int clientPort, int peerPort, int metricsPort) {
            this.name = name;
            this.clientPort = clientPort;
            this.peerPort = peerPort;
            this.metricsPort = metricsPort;
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        start(context.getRequiredTestClass().getSimpleName());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    /** Starts every member and waits until the cluster serves (outside JUnit, e.g. in a benchmark). */
    public EtcdCluster start(String clusterName) throws IOException, InterruptedException {
        this.name = clusterName;
        Path shm = Path.of("/dev/shm");
        Path parent = Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
        for (int attempt = 1; ; attempt++) {
            dir = Files.createTempDirectory(parent, "kapi-etcd-" + clusterName + "-");
            for (int i = 1; i <= size; i++) {
                members.add(new Member("m" + i, freePort(), freePort(), freePort()));
            }
            for (int i = 0; i < size; i++) {
                spawn(i);
            }
            try {
                for (int i = 0; i < size; i++) {
                    awaitHealthy(i, Duration.ofSeconds(60));
                }
                return this;
            } catch (AssertionError e) {
                // a port picked free was taken before etcd bound it (another process's connection got it
                // as its ephemeral port): start again on other ports, as a test's own server would
                boolean portTaken = members.stream().anyMatch(this::lostItsPort);
                close();
                if (!portTaken || attempt == START_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    /** Whether member {@code m} exited because one of its ports was in use. */
    private boolean lostItsPort(Member m) {
        try {
            return m.process != null && !m.process.isAlive()
                    && Files.readString(log(m)).contains("bind: address already in use");
        } catch (IOException e) {
            return false;
        }
    }

    /** The client URLs of all members, for {@code --etcd-servers}. */
    public List<String> endpoints() {
        return members.stream().map(m -> scheme + "://127.0.0.1:" + m.clientPort).toList();
    }

    /** {@link #endpoints()} comma-separated. */
    public String servers() {
        return String.join(",", endpoints());
    }

    /** Stops member {@code index} (0-based) with SIGTERM, as an operator would. */
    public void stop(int index) {
        Member m = members.get(index);
        if (m.process == null) {
            return;
        }
        m.process.destroy();
        try {
            if (!m.process.waitFor(20, TimeUnit.SECONDS)) {
                m.process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        m.process = null;
    }

    /** Starts member {@code index} again on its data and ports; returns at once (quorum may be missing). */
    public void restart(int index) {
        spawn(index);
    }

    /**
     * The index of the member that is the Raft leader now, read off each running member's
     * {@code etcd_server_is_leader} metric; waits up to {@code max} for one (an election may be under way).
     */
    public int leader(Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        try (HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build()) {
            while (System.nanoTime() < deadline) {
                for (int i = 0; i < members.size(); i++) {
                    Member m = members.get(i);
                    if (m.process == null || !m.process.isAlive()) {
                        continue;
                    }
                    try {
                        String metrics = http.send(HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + m.metricsPort + "/metrics")).timeout(Duration.ofSeconds(2))
                                .build(), HttpResponse.BodyHandlers.ofString()).body();
                        if (metrics.lines().anyMatch(l -> l.equals("etcd_server_is_leader 1"))) {
                            return i;
                        }
                    } catch (IOException notAnswering) {
                        // asked again below
                    }
                }
                Thread.sleep(50);
            }
        }
        throw new AssertionError("no etcd member of " + name + " is the leader within " + max.toSeconds() + " s");
    }

    /** Waits until member {@code index} reports healthy (which needs a quorum). */
    public void awaitHealthy(int index, Duration max) throws InterruptedException {
        Member m = members.get(index);
        long deadline = System.nanoTime() + max.toNanos();
        String last = "not asked yet";
        try (HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build()) {
            while (System.nanoTime() < deadline) {
                if (m.process == null || !m.process.isAlive()) {
                    throw new AssertionError("etcd member " + m.name + " exited; see " + log(m));
                }
                try {
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + m.metricsPort + "/health")).timeout(Duration.ofSeconds(2))
                            .build(), HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() == 200 && r.body().contains("\"true\"")) {
                        return;
                    }
                    last = r.statusCode() + " " + r.body();
                } catch (IOException notYet) {
                    last = notYet.toString();
                }
                Thread.sleep(50);
            }
        }
        throw new AssertionError("etcd member " + m.name + " not healthy within " + max.toSeconds() + " s: " + last
                + "; see " + log(m));
    }

    /** Stops every member and deletes the data. */
    public void close() {
        for (int i = 0; i < members.size(); i++) {
            stop(i);
        }
        members.clear();
        if (dir != null) {
            deleteTree(dir);
        }
    }

    /** Deletes a directory tree, best effort (a warning if something stays). */
    static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot delete {0}: {1}", dir, e);
        }
    }

    private void spawn(int index) {
        Member m = members.get(index);
        String cluster = members.stream().map(x -> x.name + "=http://127.0.0.1:" + x.peerPort)
                .collect(Collectors.joining(","));
        List<String> command = new ArrayList<>(List.of(binary(), "--name", m.name,
                "--data-dir", dir.resolve(m.name).toString(),
                "--listen-client-urls", scheme + "://127.0.0.1:" + m.clientPort,
                "--advertise-client-urls", scheme + "://127.0.0.1:" + m.clientPort,
                "--listen-peer-urls", "http://127.0.0.1:" + m.peerPort,
                "--initial-advertise-peer-urls", "http://127.0.0.1:" + m.peerPort,
                "--listen-metrics-urls", "http://127.0.0.1:" + m.metricsPort,
                "--initial-cluster", cluster, "--initial-cluster-state", "new",
                "--initial-cluster-token", token,
                "--logger", "zap", "--log-level", "warn"));
        command.addAll(extraArgs);
        try {
            Path logs = Files.createDirectories(Path.of("target", "etcd-logs"));
            m.process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logs.resolve(name + "-" + m.name + ".log").toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
        ProcessHandle handle = m.process.toHandle();
        Runtime.getRuntime().addShutdownHook(new Thread(handle::destroyForcibly));
    }

    private Path log(Member m) {
        return Path.of("target", "etcd-logs", name + "-" + m.name + ".log").toAbsolutePath();
    }

    /** The etcd binary: Debian's {@code /usr/bin/etcd}, or one on the PATH. */
    static String binary() {
        for (String candidate : List.of("/usr/bin/etcd", "/usr/local/bin/etcd")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return candidate;
            }
        }
        for (String p : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!p.isEmpty() && Files.isExecutable(Path.of(p, "etcd"))) {
                return Path.of(p, "etcd").toString();
            }
        }
        throw new AssertionError("etcd is not installed: run bin/test (which installs Debian's etcd-server "
                + "when missing), or apt-get install etcd-server as root");
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

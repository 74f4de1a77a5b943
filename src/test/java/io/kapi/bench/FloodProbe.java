package io.kapi.bench;

import io.kapi.e2e.ApiClient;
import io.kapi.e2e.Kubeconfig;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The flood benchmark's {@code system:masters} client in a process of its own, scheduled ahead of the load
 * generator's: on a machine whose cores the benchmark's 70-odd client threads share with the server, an
 * administrator's client in the same JVM measures how long its own thread waits for a core as much as how
 * long the server takes. An administrator's kubectl runs elsewhere; this probe stands for it.
 *
 * <p>The parent writes {@code run <millis>} lines; the probe GETs its path in a loop for that long and answers
 * one line: the status of every answer and the latency of every 200, in microseconds. {@code quit} ends it.
 */
public final class FloodProbe implements AutoCloseable {

    /** How much ahead of the load generator the probe is scheduled (nice; needs root, else it runs level). */
    static final int NICE_AHEAD = 5;

    private final Process process;
    private final BufferedWriter commands;
    private final BufferedReader answers;
    private final boolean ahead;

    private FloodProbe(Process process, boolean ahead) {
        this.process = process;
        this.ahead = ahead;
        this.commands = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
        this.answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Starts the probe for the server's admin kubeconfig and the path it GETs. */
    static FloodProbe start(Path kubeconfig, int port, String path) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        int nice = Niceness.current() - NICE_AHEAD;
        boolean ahead = Niceness.canRaise(NICE_AHEAD);
        List<String> command = new ArrayList<>();
        if (ahead) {
            command.addAll(List.of("nice", "-n", Integer.toString(-NICE_AHEAD)));
        }
        command.addAll(List.of(java, "-XX:+UseSerialGC", "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                FloodProbe.class.getName(), kubeconfig.toString(), Integer.toString(port), path));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        FloodProbe probe = new FloodProbe(process, ahead);
        String ready = probe.answers.readLine();
        if (!"ready".equals(ready)) {
            probe.close();
            throw new IOException("the probe did not start: " + ready);
        }
        System.out.printf("system:masters probe: a process of its own, nice %d%s%n", ahead ? nice : Niceness.current(),
                ahead ? " (ahead of the load generator)" : " (level with the load generator: raising needs root)");
        return probe;
    }

    /** GETs for {@code millis} and returns the answers as a tally. */
    FloodBench.Tally run(long millis) throws IOException {
        commands.write("run " + millis + "\n");
        commands.flush();
        String line = answers.readLine();
        if (line == null) {
            throw new IOException("the probe ended");
        }
        FloodBench.Tally tally = new FloodBench.Tally();
        for (String entry : line.isBlank() ? new String[0] : line.split(" ")) {
            int colon = entry.indexOf(':');
            tally.add(Integer.parseInt(entry.substring(0, colon)), Long.parseLong(entry.substring(colon + 1)) * 1000);
        }
        return tally;
    }

    boolean ahead() {
        return ahead;
    }

    @Override
    public void close() throws IOException {
        try {
            commands.write("quit\n");
            commands.flush();
        } catch (IOException e) {
            // already gone
        }
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** The probe's side: {@code kubeconfig port path}, then commands on stdin. */
    public static void main(String[] args) throws IOException {
        Kubeconfig file = Kubeconfig.load(Path.of(args[0]));
        Kubeconfig kubeconfig = new Kubeconfig(URI.create("https://127.0.0.1:" + args[1]), file.caPem(),
                file.clientCertPem(), file.clientKeyPem());
        String path = args[2];
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (ApiClient client = ApiClient.of(kubeconfig)) {
            for (int i = 0; i < 2000; i++) { // the client's own warm-up
                client.exchange(path);
            }
            System.out.println("ready");
            System.out.flush();
            for (String line; (line = in.readLine()) != null && line.startsWith("run "); ) {
                long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Long.parseLong(line.substring(4)));
                StringBuilder out = new StringBuilder();
                while (System.nanoTime() < end) {
                    long start = System.nanoTime();
                    int status;
                    try {
                        status = client.exchange(path).statusCode();
                    } catch (RuntimeException e) {
                        status = -1;
                    }
                    long micros = (System.nanoTime() - start) / 1000;
                    out.append(status).append(':').append(micros).append(' ');
                }
                System.out.println(out.toString().strip());
                System.out.flush();
            }
        } catch (UncheckedIOException e) {
            System.err.println("probe: " + e.getMessage());
        }
    }
}

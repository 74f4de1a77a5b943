package io.kapi.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs a real kubectl binary against one kubeconfig, with its own discovery cache directory, and captures
 * exit code, stdout and stderr. Each run is bounded by a timeout (the process is killed past it).
 *
 * @param binary the kubectl executable
 * @param kubeconfig passed as {@code --kubeconfig}
 * @param cacheDir passed as {@code --cache-dir}, so runs never share the user's discovery cache
 */
public record Kubectl(Path binary, Path kubeconfig, Path cacheDir) {

    /** kubectl on the PATH (1.32 on this machine). */
    public static final Path DEFAULT = Path.of("kubectl");
    public static final Path V1_33 = Path.of("/usr/lib/google-cloud-sdk/bin/kubectl.1.33");
    public static final Path V1_27 = Path.of("/usr/lib/google-cloud-sdk/bin/kubectl.1.27");

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    /** Runs {@code kubectl ARGS} with no input. */
    public Result run(String... args) {
        return runWithInput(null, args);
    }

    /** Runs {@code kubectl ARGS -n NAMESPACE}. */
    public Result runIn(String namespace, String... args) {
        String[] all = java.util.Arrays.copyOf(args, args.length + 2);
        all[args.length] = "-n";
        all[args.length + 1] = namespace;
        return run(all);
    }

    /** {@code kubectl get WHAT -n NAMESPACE -o jsonpath=PATH}, stripped; fails the test when kubectl fails. */
    public String jsonpath(String namespace, String what, String path) {
        return runIn(namespace, "get", what, "-o", "jsonpath=" + path).assertOk().stdout().strip();
    }

    /** Runs {@code kubectl ARGS} with {@code stdin} (e.g. a manifest for {@code -f -}). */
    public Result runWithInput(String stdin, String... args) {
        List<String> command = new ArrayList<>();
        command.add(binary.toString());
        command.add("--kubeconfig=" + kubeconfig);
        command.add("--cache-dir=" + cacheDir);
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).start();
            CompletableFuture<String> out = drain(p.getInputStream());
            CompletableFuture<String> err = drain(p.getErrorStream());
            try (OutputStream in = p.getOutputStream()) {
                if (stdin != null) {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            }
            if (!p.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                throw new AssertionError("timed out after " + TIMEOUT.toSeconds() + " s: " + String.join(" ", command)
                        + "\nstdout: " + out.getNow("") + "\nstderr: " + err.getNow(""));
            }
            return new Result(String.join(" ", args), p.exitValue(), out.join(), err.join());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static CompletableFuture<String> drain(InputStream stream) {
        return CompletableFuture.supplyAsync(() -> {
            try (stream) {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "(unreadable: " + e + ")";
            }
        }, r -> Thread.ofVirtual().start(r));
    }

    /**
     * What one kubectl run did.
     *
     * @param args the arguments, for messages
     */
    public record Result(String args, int exitCode, String stdout, String stderr) {

        /** Fails unless kubectl exited 0; returns this for chaining. */
        public Result assertOk() {
            if (exitCode != 0) {
                throw new AssertionError("expected success: kubectl " + this);
            }
            return this;
        }

        /** Fails unless kubectl exited non-zero; returns this for chaining. */
        public Result assertFailed() {
            if (exitCode == 0) {
                throw new AssertionError("expected failure: kubectl " + this);
            }
            return this;
        }

        /** The standard output as JSON, once kubectl exited 0 ({@code -o json}). */
        public com.fasterxml.jackson.databind.JsonNode json() {
            assertOk();
            try {
                return io.kapi.machinery.Json.MAPPER.readTree(stdout);
            } catch (java.io.IOException e) {
                throw new AssertionError("not JSON: kubectl " + this, e);
            }
        }

        @Override
        public String toString() {
            return args + "\n  exit: " + exitCode + "\n  stdout: " + stdout.strip() + "\n  stderr: " + stderr.strip();
        }
    }
}

package io.kapi.certs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The openssl command line, the other side of the certificate and PEM tests. */
final class Openssl {

    /** The output of the command and its exit code. */
    record Result(int exitCode, String output) {
    }

    private Openssl() {
    }

    /** Runs {@code openssl args} in {@code dir}. */
    static Result run(Path dir, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes());
        return new Result(process.waitFor(), out);
    }

    /** Runs {@code openssl args} in {@code dir}, asserting that it succeeds; its output. */
    static String ok(Path dir, String... args) throws Exception {
        Result result = run(dir, args);
        assertEquals(0, result.exitCode(), "openssl " + String.join(" ", args) + ": " + result.output());
        return result.output();
    }
}

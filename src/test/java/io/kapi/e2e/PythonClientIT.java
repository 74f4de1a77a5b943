package io.kapi.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The official Python client (Debian's {@code python3-kubernetes}, which {@code bin/test} installs when
 * it is missing) against a real Kapi: it sends {@code watch=True}, so every watch and informer of it
 * depends on query booleans being read as kube-apiserver reads them.
 */
@DisplayName("official Python client")
final class PythonClientIT {

    private static final Path PYTHON = Path.of("/usr/bin/python3");

    @RegisterExtension
    static final KapiExtension KAPI = new KapiExtension();

    @BeforeAll
    static void clientInstalled() throws Exception {
        boolean present = Files.isExecutable(PYTHON)
                && new ProcessBuilder(PYTHON.toString(), "-c", "import kubernetes").start().waitFor() == 0;
        Assumptions.assumeTrue(present, "the official Python client is not installed: "
                + "apt-get install python3-kubernetes (bin/test does it when run as root with apt)");
    }

    @Test
    @DisplayName("a watch from a resourceVersion sees ADDED, MODIFIED, DELETED; a list-then-watch sees a live create")
    void watchAndInformer() throws Exception {
        KAPI.kubectl().run("create", "namespace", "python").assertOk();
        Path script = Path.of(System.getProperty("kapi.e2e.projectDir", ""))
                .resolve("src/test/resources/e2e/python/watch_configmaps.py");
        Process p = new ProcessBuilder(PYTHON.toString(), script.toString(),
                KAPI.kapi().kubeconfigPath().toString(), "python").start();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        String out = read(p.getInputStream());
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the script ended");
        String why = out + "\n" + err.get(10, TimeUnit.SECONDS);
        assertEquals(0, p.exitValue(), why);
        List<String> lines = out.lines().toList();
        assertEquals(List.of("WATCH ADDED py-watch", "WATCH MODIFIED py-watch", "WATCH DELETED py-watch"),
                lines.stream().filter(l -> l.startsWith("WATCH ") && l.endsWith(" py-watch")).toList(), why);
        assertTrue(lines.contains("INFORMER ADDED py-live"), why);
        assertEquals("DONE", lines.getLast(), why);
    }

    private static String read(java.io.InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }
}

package io.kapi.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The benchmark's own scheduling: a process of the benchmark set ahead of the load generator it shares the
 * machine's cores with, as it would be with the load on other machines. Raising a priority needs root (or
 * CAP_SYS_NICE); without it nothing changes and the caller says so.
 */
final class Niceness {

    private Niceness() {
    }

    /** The calling process's nice value. */
    static int current() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Integer.parseInt(fields[16]); // field 19 of stat: nice
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** Whether this process may start one {@code by} nice levels ahead of itself. */
    static boolean canRaise(int by) {
        return run(List.of("nice", "-n", Integer.toString(-by), "true"));
    }

    /**
     * Sets every thread of process {@code pid} {@code by} nice levels ahead of this process (threads it makes
     * later inherit their maker's); false if that was refused.
     */
    static boolean raise(long pid, int by) {
        List<String> command = new ArrayList<>(List.of("renice", "-n", Integer.toString(current() - by), "-p"));
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            tasks.forEach(t -> command.add(t.getFileName().toString()));
        } catch (IOException e) {
            return false;
        }
        return run(command);
    }

    private static boolean run(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return p.waitFor() == 0 && !out.contains("denied") && !out.contains("failed");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}

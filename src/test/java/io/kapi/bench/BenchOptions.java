package io.kapi.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/** The benchmarks' command line: {@code --name=value} arguments, in order. */
final class BenchOptions {

    private BenchOptions() {
    }

    /** @throws IllegalArgumentException for an argument not of the form {@code --name=value} */
    static Map<String, String> parse(String[] args) {
        Map<String, String> opts = new LinkedHashMap<>();
        for (String arg : args) {
            if (!arg.startsWith("--") || !arg.contains("=")) {
                throw new IllegalArgumentException("expected --name=value, got " + arg);
            }
            opts.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
        }
        return opts;
    }
}

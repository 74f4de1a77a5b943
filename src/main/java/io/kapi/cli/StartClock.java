package io.kapi.cli;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * Where a start's time goes: named steps, each timed from the end of the one before, the first from
 * the moment bin/kapi was run (its checks, the JVM's own start-up and class loading). Logged as one line at
 * {@code -v=2}, e.g. {@code start-up: jvm 180 ms, flags 150 ms, api 900 ms, listener 300 ms}.
 */
final class StartClock {

    private record Step(String name, long millis) {
    }

    private final List<Step> steps = new ArrayList<>();
    private long last;

    /**
     * A clock whose first step starts at {@code launchedAt} (epoch milliseconds, bin/kapi passes the
     * time it was run as the system property {@code kapi.launchedAt}), or now when that is absent.
     */
    StartClock(String launchedAt) {
        long now = System.currentTimeMillis();
        try {
            last = launchedAt == null ? now : Math.min(now, Long.parseLong(launchedAt));
        } catch (NumberFormatException e) {
            last = now;
        }
    }

    /** Ends the step {@code name} now. */
    void mark(String name) {
        long now = System.currentTimeMillis();
        steps.add(new Step(name, now - last));
        last = now;
    }

    /** Logs the steps so far. */
    void log(System.Logger log) {
        if (log.isLoggable(Level.DEBUG)) {
            StringJoiner line = new StringJoiner(", ", "start-up: ", "; " + total() + " ms in all");
            steps.forEach(s -> line.add(s.name() + " " + s.millis() + " ms"));
            log.log(Level.DEBUG, line.toString());
        }
    }

    private long total() {
        return steps.stream().mapToLong(Step::millis).sum();
    }
}

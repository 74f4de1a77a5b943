package io.kapi.bench;

import java.time.Duration;
import java.util.Arrays;

/**
 * One measured phase: how many requests succeeded and failed, in how long, and their latencies.
 *
 * @param latenciesNanos of the successful requests, sorted ascending
 */
record Phase(int ok, int failed, Duration elapsed, long[] latenciesNanos) {

    static Phase of(int failed, Duration elapsed, long[] latencies) {
        long[] sorted = latencies.clone();
        Arrays.sort(sorted);
        return new Phase(sorted.length, failed, elapsed, sorted);
    }

    double perSecond() {
        return ok / Math.max(elapsed.toNanos() / 1e9, 1e-9);
    }

    double medianMillis() {
        return percentileMillis(0.50);
    }

    double p99Millis() {
        return percentileMillis(0.99);
    }

    private double percentileMillis(double p) {
        if (latenciesNanos.length == 0) {
            return Double.NaN;
        }
        int index = (int) Math.min(latenciesNanos.length - 1, Math.ceil(p * latenciesNanos.length) - 1);
        return latenciesNanos[Math.max(index, 0)] / 1e6;
    }
}

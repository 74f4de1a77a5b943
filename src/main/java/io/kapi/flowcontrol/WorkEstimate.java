package io.kapi.flowcontrol;

import java.time.Duration;

/**
 * What a request costs in seats, as kube's {@code WorkEstimate}: {@code initialSeats} while it runs;
 * {@code finalSeats} for {@code additionalLatency} after it finished (a write's fan-out to watchers).
 * Flow control reserves the larger of the two for the whole time.
 */
record WorkEstimate(int initialSeats, int finalSeats, Duration additionalLatency) {

    static final WorkEstimate ONE = new WorkEstimate(1, 0, Duration.ZERO);

    int maxSeats() {
        return Math.max(initialSeats, finalSeats);
    }
}

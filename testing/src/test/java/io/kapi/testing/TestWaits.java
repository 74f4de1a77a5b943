package io.kapi.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls a condition; no sleep is used as synchronisation elsewhere. */
final class TestWaits {

    static final Duration DEFAULT = Duration.ofSeconds(30);

    private TestWaits() {
    }

    static void until(BooleanSupplier condition) {
        until(condition, DEFAULT, "condition");
    }

    static void until(BooleanSupplier condition, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + " not met within " + timeout);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }
}

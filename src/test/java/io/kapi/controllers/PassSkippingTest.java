package io.kapi.controllers;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PassSkippingTest {

    private static final long S = 1_000_000_000L;

    @Test
    @DisplayName("a pass runs first, then only when the state moved since the last completed pass, or once a minute")
    void skipsWhileNothingChanged() {
        PeriodicWorker.PassSkipping skipping = new PeriodicWorker.PassSkipping(60 * S);
        assertTrue(skipping.due(7, 0), "the first pass always runs");
        skipping.ran(7, 0);
        assertFalse(skipping.due(7, S), "nothing written since");
        assertFalse(skipping.due(7, 59 * S));
        assertTrue(skipping.due(8, 2 * S), "a cache applied a write");
        skipping.ran(8, 2 * S);
        assertFalse(skipping.due(8, 3 * S));
        assertTrue(skipping.due(8, 62 * S), "the full pass every minute, in case a pass left work undone");
    }

    @Test
    @DisplayName("a pass that failed is not recorded: the next one runs although the state stayed")
    void failedPassRunsAgain() {
        PeriodicWorker.PassSkipping skipping = new PeriodicWorker.PassSkipping(60 * S);
        assertTrue(skipping.due(7, 0));
        // the pass threw: ran() was not called
        assertTrue(skipping.due(7, S));
        skipping.ran(7, S);
        assertFalse(skipping.due(7, 2 * S));
    }
}

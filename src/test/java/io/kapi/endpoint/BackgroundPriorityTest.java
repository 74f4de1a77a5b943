package io.kapi.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class BackgroundPriorityTest {

    /** The calling thread's scheduling policy as the kernel reports it (field 41 of /proc/thread-self/stat). */
    static int policyOfCurrentThread() {
        return statField(41);
    }

    /** Field {@code n} (from 1) of the calling thread's /proc/thread-self/stat. */
    private static int statField(int n) {
        try {
            String stat = Files.readString(Path.of("/proc/thread-self/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Integer.parseInt(fields[n - 3]); // the split starts at the third field, after the name
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    @DisplayName("a platform thread is lowered to SCHED_IDLE; the threads around it keep their policy")
    void lowersOnlyTheCaller() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self/stat")), "Linux only");
        assertTrue(BackgroundPriority.available(), "native access is enabled for the tests, as bin/kapi enables it");
        int before = policyOfCurrentThread();
        AtomicInteger lowered = new AtomicInteger(-100);
        AtomicBoolean said = new AtomicBoolean();
        Thread background = Thread.ofPlatform().start(() -> {
            said.set(BackgroundPriority.lowerCurrentThread());
            lowered.set(policyOfCurrentThread());
        });
        background.join();
        assertTrue(said.get());
        assertEquals(BackgroundPriority.SCHED_IDLE, lowered.get());
        assertEquals(before, policyOfCurrentThread(), "the caller's thread only, not the process");
        assertEquals(0, before, "SCHED_OTHER");
    }

    @Test
    @DisplayName("a virtual thread is left alone: its carrier runs other threads too")
    void virtualLeftAlone() throws Exception {
        AtomicBoolean said = new AtomicBoolean(true);
        Thread.ofVirtual().start(() -> said.set(BackgroundPriority.lowerCurrentThread())).join();
        assertFalse(said.get());
    }
}

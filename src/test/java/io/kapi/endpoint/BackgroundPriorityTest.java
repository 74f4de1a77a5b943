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

    /** The calling thread's nice value as the kernel reports it (field 19 of /proc/thread-self/stat). */
    static int niceOfCurrentThread() {
        try {
            String stat = Files.readString(Path.of("/proc/thread-self/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Integer.parseInt(fields[16]); // fields from the third on: nice is the 19th
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    @DisplayName("a platform thread is lowered to nice 10; the threads around it keep theirs")
    void lowersOnlyTheCaller() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self/stat")), "Linux only");
        assertTrue(BackgroundPriority.available(), "native access is enabled for the tests, as bin/kapi enables it");
        int before = niceOfCurrentThread();
        AtomicInteger lowered = new AtomicInteger(-100);
        AtomicBoolean said = new AtomicBoolean();
        Thread background = Thread.ofPlatform().start(() -> {
            said.set(BackgroundPriority.lowerCurrentThread());
            lowered.set(niceOfCurrentThread());
        });
        background.join();
        assertTrue(said.get());
        assertEquals(BackgroundPriority.NICE, lowered.get());
        assertEquals(before, niceOfCurrentThread(), "the caller's thread only, not the process");
    }

    @Test
    @DisplayName("a virtual thread is left alone: its carrier runs other threads too")
    void virtualLeftAlone() throws Exception {
        AtomicBoolean said = new AtomicBoolean(true);
        Thread.ofVirtual().start(() -> said.set(BackgroundPriority.lowerCurrentThread())).join();
        assertFalse(said.get());
    }
}

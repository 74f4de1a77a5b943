package io.kapi.endpoint;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;
import java.util.Optional;

/**
 * Gives the calling platform thread the operating system's background priority, so that bulk work on it
 * takes only the CPU the rest of the server leaves and still runs at full speed on an otherwise idle
 * machine: Linux's {@code SCHED_IDLE} policy for that thread ({@code sched_setscheduler(tid, SCHED_IDLE)}),
 * else, where that is refused, nice {@value #NICE} ({@code setpriority(PRIO_PROCESS, tid, 10)}).
 *
 * <p>Why {@code SCHED_IDLE} first: a nice-10 thread has a tenth of a nice-0 thread's share, but once it runs
 * the kernel (EEVDF) lets it finish its time slice (1.5 ms on two cores) before a request thread that wakes
 * up gets the core; under a LIST flood that wait was the admin's tail latency. A {@code SCHED_IDLE} thread
 * is preempted at once by any other thread that wakes, and a core running only such threads counts as idle
 * when the kernel places a waking thread.
 *
 * <p>Used where large lists are encoded ({@link ListEncoders}): under a LIST flood on two cores, the
 * encoders took the cores from the requests that API Priority and Fairness had admitted beside them, exempt
 * ones included. Both changes only lower a thread's priority, which needs no privilege.
 *
 * <p>Where the platform does not allow it (not Linux, or native access not enabled for this module:
 * {@code bin/kapi} enables it), nothing changes and {@link #lowerCurrentThread} says so.
 */
public final class BackgroundPriority {

    /** The nice value of background threads where {@code SCHED_IDLE} is refused. */
    public static final int NICE = 10;
    /** Linux's scheduling policy number of {@code SCHED_IDLE}. */
    public static final int SCHED_IDLE = 5;
    private static final int PRIO_PROCESS = 0;
    private static final Optional<Calls> CALLS = Calls.find();

    private BackgroundPriority() {
    }

    /** The C library functions, when they can be called. */
    private record Calls(MethodHandle gettid, MethodHandle setpriority, MethodHandle setscheduler) {

        static Optional<Calls> find() {
            if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")
                    || !BackgroundPriority.class.getModule().isNativeAccessEnabled()) {
                return Optional.empty();
            }
            try {
                Linker linker = Linker.nativeLinker();
                var libc = linker.defaultLookup();
                var gettid = libc.find("gettid");
                var setpriority = libc.find("setpriority");
                var setscheduler = libc.find("sched_setscheduler");
                if (gettid.isEmpty() || setpriority.isEmpty() || setscheduler.isEmpty()) {
                    return Optional.empty();
                }
                return Optional.of(new Calls(
                        linker.downcallHandle(gettid.get(), FunctionDescriptor.of(ValueLayout.JAVA_INT)),
                        linker.downcallHandle(setpriority.get(), FunctionDescriptor.of(ValueLayout.JAVA_INT,
                                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT)),
                        linker.downcallHandle(setscheduler.get(), FunctionDescriptor.of(ValueLayout.JAVA_INT,
                                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS))));
            } catch (RuntimeException | LinkageError e) {
                return Optional.empty();
            }
        }

        /** {@code SCHED_IDLE} (whose {@code struct sched_param} holds one int, priority 0), else nice 10. */
        boolean lower() throws Throwable {
            int tid = (int) gettid.invokeExact();
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment param = arena.allocate(ValueLayout.JAVA_INT); // zeroed: sched_priority 0
                if ((int) setscheduler.invokeExact(tid, SCHED_IDLE, param) == 0) {
                    return true;
                }
            }
            return (int) setpriority.invokeExact(PRIO_PROCESS, tid, NICE) == 0;
        }
    }

    /**
     * Gives the calling thread the background priority; a virtual thread is left alone (its carrier runs
     * other threads too).
     *
     * @return whether the thread now runs at that priority
     */
    public static boolean lowerCurrentThread() {
        if (CALLS.isEmpty() || Thread.currentThread().isVirtual()) {
            return false;
        }
        try {
            return CALLS.get().lower();
        } catch (Throwable e) {
            return false;
        }
    }

    /** Whether threads can be given the background priority here. */
    public static boolean available() {
        return CALLS.isPresent();
    }
}

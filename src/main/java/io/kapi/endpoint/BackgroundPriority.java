package io.kapi.endpoint;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;
import java.util.Optional;

/**
 * Lowers the operating system's scheduling priority of the calling platform thread (Linux's per-thread
 * nice value, through {@code setpriority(PRIO_PROCESS, tid, nice)}), so that bulk work on it takes only the
 * CPU that the rest of the server leaves: at nice 10 a thread's share against a nice-0 thread is about a
 * tenth, and it still runs at full speed on an otherwise idle machine.
 *
 * <p>Used where large lists are encoded ({@link ListEncoders}): under a LIST flood on two cores, the
 * encoders took the cores from the requests that API Priority and Fairness had admitted beside them, exempt
 * ones included. A thread's nice value can only be raised without privileges, so this never needs any.
 *
 * <p>Where the platform does not allow it (not Linux, or native access not enabled for this module:
 * {@code bin/kapi} enables it), nothing changes and {@link #lowerCurrentThread} says so.
 */
public final class BackgroundPriority {

    /** The nice value of background threads: Linux's weight 110 against 1024 at the default 0. */
    public static final int NICE = 10;
    private static final int PRIO_PROCESS = 0;
    private static final Optional<Calls> CALLS = Calls.find();

    private BackgroundPriority() {
    }

    /** The two C library functions, when they can be called. */
    private record Calls(MethodHandle gettid, MethodHandle setpriority) {

        static Optional<Calls> find() {
            if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")
                    || !BackgroundPriority.class.getModule().isNativeAccessEnabled()) {
                return Optional.empty();
            }
            try {
                Linker linker = Linker.nativeLinker();
                var libc = linker.defaultLookup();
                return libc.find("gettid").flatMap(gettid -> libc.find("setpriority").map(setpriority -> new Calls(
                        linker.downcallHandle(gettid, FunctionDescriptor.of(ValueLayout.JAVA_INT)),
                        linker.downcallHandle(setpriority, FunctionDescriptor.of(ValueLayout.JAVA_INT,
                                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT)))));
            } catch (RuntimeException | LinkageError e) {
                return Optional.empty();
            }
        }
    }

    /**
     * Gives the calling thread the background priority ({@link #NICE}); a virtual thread is left alone (its
     * carrier runs other threads too).
     *
     * @return whether the thread now runs at that priority
     */
    public static boolean lowerCurrentThread() {
        if (CALLS.isEmpty() || Thread.currentThread().isVirtual()) {
            return false;
        }
        try {
            int tid = (int) CALLS.get().gettid().invokeExact();
            return (int) CALLS.get().setpriority().invokeExact(PRIO_PROCESS, tid, NICE) == 0;
        } catch (Throwable e) {
            return false;
        }
    }

    /** Whether threads can be given the background priority here. */
    public static boolean available() {
        return CALLS.isPresent();
    }
}

package io.kapi.endpoint;

/**
 * Cooperative time slicing for the long loops of a response (encoding the items of a list, one table
 * row per object). Requests run on virtual threads, which the JDK does not preempt: a loop calls
 * {@link #step} once per item, and every {@value #ITEMS_PER_SLICE} items the thread yields, so that
 * requests queued meanwhile get a turn. Yielding alone did not keep sixteen concurrent LISTs of 10,000
 * objects from holding both carriers of a two-core machine for seconds, so large JSON lists are written
 * on platform threads instead ({@link ListEncoders}); on a platform thread this does nothing (the OS
 * scheduler already shares the CPU).
 */
public final class CpuShare {

    /** About a tenth of a millisecond of encoding of typical objects. */
    static final int ITEMS_PER_SLICE = 64;

    private CpuShare() {
    }

    /** Called with the running index of the loop: yields at the end of each slice. */
    public static void step(int index) {
        if (index % ITEMS_PER_SLICE == ITEMS_PER_SLICE - 1 && Thread.currentThread().isVirtual()) {
            Thread.yield();
        }
    }
}

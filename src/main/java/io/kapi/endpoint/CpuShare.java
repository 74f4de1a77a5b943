package io.kapi.endpoint;

/**
 * Cooperative time slicing for the long loops of a response (encoding the items of a large list, one
 * table row per object). Requests run on virtual threads, which the JDK does not preempt: sixteen
 * LISTs of 10,000 objects would hold both carriers of a two-core machine for as long as they encode,
 * and a one-object GET would wait behind them. A loop calls {@link #step} once per item; every
 * {@value #ITEMS_PER_SLICE} items the thread yields, so the requests queued meanwhile run before it
 * goes on. On a platform thread it does nothing (the OS scheduler already shares the CPU).
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

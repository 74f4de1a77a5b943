package io.kapi.cli;

/**
 * How many carrier threads run the virtual threads of requests: twice the cores (at least four) unless
 * {@code -Djdk.virtualThreadScheduler.parallelism} says otherwise. The JDK's default, one per core, lets
 * CPU-bound requests (large lists being encoded) hold every carrier, and a request that arrives meanwhile
 * waits for one of them to yield: during 16 LISTs of 10,000 objects a probe GET's thread waited up to 1.7 s
 * to start on a two-core machine. With more carriers than {@link io.kapi.endpoint.ListSeats} seats,
 * a carrier is free for such a request, and the operating system, which preempts, shares the cores.
 */
final class Carriers {

    static final String PARALLELISM = "jdk.virtualThreadScheduler.parallelism";

    private Carriers() {
    }

    /** Sets the parallelism; call before the first virtual thread starts. */
    static void configure() {
        if (System.getProperty(PARALLELISM) == null) {
            System.setProperty(PARALLELISM, Integer.toString(parallelism(Runtime.getRuntime().availableProcessors())));
        }
    }

    static int parallelism(int cores) {
        return Math.max(4, 2 * cores);
    }
}

package io.kapi.endpoint;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * How many large LIST responses are encoded at once, a share of the CPU the way kube-apiserver's API
 * Priority and Fairness gives a large list a wide seat: a list of at least {@link #LARGE_ITEMS} items
 * waits for one of a few seats (one per core, at least two) before it encodes, so sixteen concurrent
 * LISTs of 10,000 objects take turns instead of all encoding at once and a small request arriving
 * meanwhile (a probe GET) competes with a handful of encoders, not with sixteen. Smaller lists and every
 * other request never wait here. A list waits at most {@link #MAX_WAIT_SECONDS} and then encodes anyway:
 * the seats shape load, they never refuse or starve a request. Thread-safe.
 */
public final class ListSeats {

    /** Lists smaller than this encode at once. */
    public static final int LARGE_ITEMS = 1000;
    static final long MAX_WAIT_SECONDS = 60;

    private final Semaphore seats;

    public ListSeats(int seats) {
        if (seats < 1) {
            throw new IllegalArgumentException("seats must be at least 1, got " + seats);
        }
        this.seats = new Semaphore(seats, true);
    }

    /**
     * One seat per core, at least two: fewer than the carrier threads {@code bin/kapi} runs requests on (two
     * per core, at least four), so that other requests always find a carrier free.
     */
    public static ListSeats perCore() {
        return new ListSeats(Math.max(2, Runtime.getRuntime().availableProcessors()));
    }

    /** A seat for a list of {@code items} items, to close when it is encoded; a small list's costs nothing. */
    public Seat take(int items) throws InterruptedException {
        if (items < LARGE_ITEMS) {
            return Seat.NONE;
        }
        boolean held = seats.tryAcquire(MAX_WAIT_SECONDS, TimeUnit.SECONDS);
        return held ? seats::release : Seat.NONE;
    }

    /** Seats free now. */
    int available() {
        return seats.availablePermits();
    }

    /** A held seat (or none); closing it gives the seat back. */
    @FunctionalInterface
    public interface Seat extends AutoCloseable {

        Seat NONE = () -> { };

        @Override
        void close();
    }
}

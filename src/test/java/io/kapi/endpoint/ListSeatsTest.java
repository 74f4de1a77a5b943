package io.kapi.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ListSeatsTest {

    @Test
    @DisplayName("a small list takes no seat; large lists take one each and the next waits until one is given back")
    void largeListsTakeTurns() throws Exception {
        ListSeats seats = new ListSeats(2);
        try (ListSeats.Seat small = seats.take(ListSeats.LARGE_ITEMS - 1)) {
            assertEquals(2, seats.available());
        }
        ListSeats.Seat first = seats.take(ListSeats.LARGE_ITEMS);
        ListSeats.Seat second = seats.take(10_000);
        assertEquals(0, seats.available());

        CountDownLatch third = new CountDownLatch(1);
        Thread waiting = Thread.ofVirtual().start(() -> {
            try (ListSeats.Seat s = seats.take(5_000)) {
                third.countDown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertFalse(third.await(200, TimeUnit.MILLISECONDS), "the third large list waits while both seats are held");
        first.close();
        assertTrue(third.await(5, TimeUnit.SECONDS), "and encodes once a seat is given back");
        waiting.join();
        second.close();
        assertEquals(2, seats.available());
    }

    @Test
    @DisplayName("at least one seat")
    void atLeastOne() {
        assertThrows(IllegalArgumentException.class, () -> new ListSeats(0));
        assertTrue(ListSeats.perCore().available() >= 2);
    }
}

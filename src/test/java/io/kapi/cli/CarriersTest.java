package io.kapi.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class CarriersTest {

    @Test
    @DisplayName("two carriers per core, at least four: always more than the large-list seats")
    void parallelism() {
        assertEquals(4, Carriers.parallelism(1));
        assertEquals(4, Carriers.parallelism(2));
        assertEquals(16, Carriers.parallelism(8));
        for (int cores = 1; cores <= 64; cores++) {
            int seats = Math.max(2, cores); // ListSeats.perCore()
            assertEquals(true, Carriers.parallelism(cores) > seats, "cores " + cores);
        }
    }
}

package io.kapi.endpoint.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HumanDurationTest {

    @ParameterizedTest(name = "{0}s -> {1}")
    @CsvSource({
        "-3, <invalid>", "-2, <invalid>", "-1, 0s", "0, 0s", "1, 1s", "59, 59s", "60, 60s", "119, 119s",
        "120, 2m", "121, 2m1s", "182, 3m2s", "599, 9m59s", "600, 10m", "601, 10m", "3599, 59m", "10799, 179m",
        "10800, 3h", "10860, 3h1m", "28799, 7h59m", "28800, 8h", "86400, 24h", "172799, 47h", "172800, 2d",
        "190800, 2d5h", "691199, 7d23h", "691200, 8d", "63071999, 729d", "63072000, 2y", "63158400, 2y1d",
        "252288000, 8y", "315360000, 10y"
    })
    @DisplayName("human durations should read as kube's duration.HumanDuration")
    void human(long seconds, String expected) {
        assertEquals(expected, HumanDuration.human(Duration.ofSeconds(seconds)));
    }

    @ParameterizedTest(name = "{0}s -> {1}")
    @CsvSource({
        "-2, <invalid>", "-1, 0s", "59, 59s", "60, 1m", "3599, 59m", "3600, 1h", "86399, 23h", "86400, 1d",
        "31535999, 364d", "31536000, 1y", "94608000, 3y"
    })
    @DisplayName("short human durations should read as kube's duration.ShortHumanDuration")
    void shortHuman(long seconds, String expected) {
        assertEquals(expected, HumanDuration.shortHuman(Duration.ofSeconds(seconds)));
    }

    @Test
    @DisplayName("a fraction of a second below zero should tolerate clock skew")
    void skew() {
        assertEquals("0s", HumanDuration.human(Duration.ofMillis(-1900)));
        assertEquals("<invalid>", HumanDuration.human(Duration.ofMillis(-2000)));
        assertEquals("1s", HumanDuration.human(Duration.ofMillis(1999)));
    }

    @Test
    @DisplayName("an unset timestamp should print as <unknown>")
    void unknown() {
        assertEquals("<unknown>", HumanDuration.since(null, Instant.EPOCH));
    }
}

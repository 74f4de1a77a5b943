package io.kapi.machinery.protobuf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GoTimeTest {

    @ParameterizedTest(name = "{0} ns is {1}")
    @DisplayName("durations print as Go's time.Duration.String and parse back")
    @CsvSource({
        "0, 0s", "1, 1ns", "1500, 1.5\u00b5s", "1500000, 1.5ms", "1000000000, 1s", "90000000000, 1m30s",
        "3600000000000, 1h0m0s", "5400500000000, 1h30m0.5s", "-2000000000, -2s"})
    void durations(long nanos, String text) {
        assertEquals(text, GoTime.formatDuration(nanos));
        assertEquals(nanos, GoTime.parseDuration(text));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @DisplayName("Go duration forms parse: fractions, several units, us")
    @CsvSource({"1.5h, 5400000000000", "2h45m, 9900000000000", "300us, 300000", "0, 0", "+10s, 10000000000"})
    void parses(String text, long nanos) {
        assertEquals(nanos, GoTime.parseDuration(text));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @DisplayName("malformed durations are rejected")
    @CsvSource({"''", "10", "1x", "h", "1..5s"})
    void rejects(String text) {
        assertThrows(IllegalArgumentException.class, () -> GoTime.parseDuration(text));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @DisplayName("times print in UTC as RFC 3339, MicroTime with six fraction digits")
    @CsvSource({"0, 0, 1970-01-01T00:00:00Z, 1970-01-01T00:00:00.000000Z",
        "1700000000, 123456789, 2023-11-14T22:13:20Z, 2023-11-14T22:13:20.123456Z"})
    void times(long seconds, int nanos, String time, String micro) {
        assertEquals(time, GoTime.formatTime(seconds));
        assertEquals(micro, GoTime.formatMicroTime(seconds, nanos));
        assertEquals(seconds, GoTime.parseTime(time).getEpochSecond());
    }

    @org.junit.jupiter.api.Test
    @DisplayName("times with an offset or a fraction parse, as Go's RFC 3339 parser accepts them")
    void offsets() {
        assertEquals(1700000000L, GoTime.parseTime("2023-11-14T23:13:20+01:00").getEpochSecond());
        assertEquals(500_000_000, GoTime.parseTime("2023-11-14T22:13:20.5Z").getNano());
        assertThrows(IllegalArgumentException.class, () -> GoTime.parseTime("yesterday"));
    }

    @org.junit.jupiter.api.Test
    @DisplayName("times are formatted as the JDK's RFC 3339 formatter would, across 1970-9999 and at its edges")
    void timesAsTheFormatter() {
        java.time.format.DateTimeFormatter rfc3339 = java.time.format.DateTimeFormatter
                .ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'").withZone(java.time.ZoneOffset.UTC);
        java.util.SplittableRandom random = new java.util.SplittableRandom(32);
        java.util.List<Long> samples = new java.util.ArrayList<>(java.util.List.of(0L, 59L, 86_399L, 86_400L,
                951_782_400L, 4_107_542_400L, 253_402_300_799L, 253_402_300_800L, -1L, -62_135_596_800L));
        for (int i = 0; i < 5_000; i++) {
            samples.add(random.nextLong(253_402_300_800L));
        }
        for (long seconds : samples) {
            assertEquals(rfc3339.format(java.time.Instant.ofEpochSecond(seconds)), GoTime.formatTime(seconds),
                    "at " + seconds);
            assertEquals(rfc3339.format(java.time.Instant.ofEpochSecond(seconds)), GoTime.formatTime(seconds),
                    "again at " + seconds);
        }
    }
}

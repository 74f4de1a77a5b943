package io.kapi.machinery.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The times managed-field entries are ordered by: kube's form read directly, any other as RFC 3339. */
class ManagedFieldsTimeTest {

    @Test
    void kubesFormGivesTheJdksSeconds() {
        Random random = new Random(7);
        for (int i = 0; i < 5_000; i++) {
            Instant t = Instant.ofEpochSecond(random.nextLong(-62_135_596_800L, 253_402_300_799L))
                    .truncatedTo(ChronoUnit.SECONDS);
            String text = t.toString();
            assertEquals(t.getEpochSecond(), ManagedFields.epochSeconds(text), text);
        }
        assertEquals(951_782_400L, ManagedFields.epochSeconds("2000-02-29T00:00:00Z"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2026-12-03T11:55:20.5Z", "2026-12-03T13:55:20+02:00", "2026-12-03T06:55:20-05:00"})
    void otherRfc3339FormsAsTheJdkReadsThem(String time) {
        assertEquals(OffsetDateTime.parse(time).toEpochSecond(), ManagedFields.epochSeconds(time));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "yesterday", "2026-02-30T00:00:00Z", "2025-02-29T00:00:00Z", "2026-13-01T00:00:00Z",
            "2026-12-03T24:00:00Z", "2026-12-03T23:60:00Z", "2026-12-03T23:59:60Z", "2026-12-0xT00:00:00Z",
            "2026-12-03 11:55:20Z"})
    void aTimeThatDoesNotParseIsZero(String time) {
        assertEquals(0, ManagedFields.epochSeconds(time));
    }

    @Test
    void noTimeIsZero() {
        assertEquals(0, ManagedFields.epochSeconds(null));
    }
}

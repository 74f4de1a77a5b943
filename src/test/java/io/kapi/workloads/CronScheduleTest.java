package io.kapi.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class CronScheduleTest {

    private static List<Instant> next(String schedule, String from, int n) {
        return CronSchedule.upcoming(CronSchedule.parse(schedule, ZoneOffset.UTC), Instant.parse(from), n);
    }

    private static List<Instant> at(String... times) {
        return java.util.Arrays.stream(times).map(Instant::parse).toList();
    }

    @Test
    @DisplayName("five fields: every minute, steps, ranges, lists and names")
    void fields() {
        assertEquals(at("2026-03-01T10:01:00Z", "2026-03-01T10:02:00Z"), next("*/1 * * * *", "2026-03-01T10:00:00Z", 2));
        assertEquals(at("2026-03-01T10:00:00Z", "2026-03-01T10:15:00Z"), next("*/15 * * * *", "2026-03-01T09:59:59Z", 2));
        assertEquals(at("2026-03-02T09:30:00Z", "2026-03-02T17:30:00Z", "2026-03-03T09:30:00Z"),
                next("30 9,17 * * mon-fri", "2026-03-01T00:00:00Z", 3), "2026-03-01 is a Sunday");
        assertEquals(at("2026-06-01T00:05:00Z"), next("5 0 1 jun,DEC *", "2026-03-01T00:00:00Z", 1));
        assertEquals(at("2026-03-01T00:10:00Z", "2026-03-01T00:20:00Z"), next("10/10 0 * * *", "2026-03-01T00:00:00Z", 2),
                "N/step runs from N to the maximum");
    }

    @Test
    @DisplayName("day of month and day of week both restricted: either matches; one a star: both must")
    void days() {
        assertEquals(at("2026-03-02T00:00:00Z", "2026-03-09T00:00:00Z", "2026-03-13T00:00:00Z"),
                next("0 0 13 * 1", "2026-03-01T00:00:00Z", 3), "Mondays and the 13th");
        assertEquals(at("2026-03-13T00:00:00Z"), next("0 0 13 * *", "2026-03-01T00:00:00Z", 1));
        assertEquals(at("2026-03-02T00:00:00Z", "2026-03-09T00:00:00Z"), next("0 0 ? * 1", "2026-03-01T00:00:00Z", 2));
    }

    @Test
    @DisplayName("descriptors: @hourly, @daily, @weekly, @monthly, @yearly and @every")
    void descriptors() {
        assertEquals(at("2026-03-01T11:00:00Z"), next("@hourly", "2026-03-01T10:00:00Z", 1));
        assertEquals(at("2026-03-02T00:00:00Z"), next("@daily", "2026-03-01T10:00:00Z", 1));
        assertEquals(at("2026-03-02T00:00:00Z"), next("@midnight", "2026-03-01T10:00:00Z", 1));
        assertEquals(at("2026-03-08T00:00:00Z"), next("@weekly", "2026-03-01T10:00:00Z", 1));
        assertEquals(at("2026-04-01T00:00:00Z"), next("@monthly", "2026-03-01T10:00:00Z", 1));
        assertEquals(at("2027-01-01T00:00:00Z"), next("@annually", "2026-03-01T10:00:00Z", 1));
        assertEquals(at("2026-03-01T10:01:30Z", "2026-03-01T10:03:00Z"), next("@every 90s", "2026-03-01T10:00:00.5Z", 2));
    }

    @Test
    @DisplayName("TZ= and CRON_TZ= put the schedule in that zone, across a daylight saving change")
    void zones() {
        assertEquals(at("2026-03-01T08:00:00Z"), next("CRON_TZ=Europe/Paris 0 9 * * *", "2026-03-01T00:00:00Z", 1));
        assertEquals(at("2026-03-28T08:00:00Z", "2026-03-29T07:00:00Z"),
                next("TZ=Europe/Paris 0 9 * * *", "2026-03-27T12:00:00Z", 2));
        assertEquals(at("2026-03-01T14:00:00Z"), CronSchedule.upcoming(CronSchedule.parse("0 9 * * *",
                ZoneId.of("America/New_York")), Instant.parse("2026-03-01T00:00:00Z"), 1), "the default zone given");
    }

    @Test
    @DisplayName("malformed schedules are refused with robfig's words; an impossible date never comes")
    void errors() {
        assertEquals("expected exactly 5 fields, found 6: [* * * * * *]", assertThrows(IllegalArgumentException.class,
                () -> CronSchedule.parse("* * * * * *", ZoneOffset.UTC)).getMessage());
        assertEquals("end of range (60) above maximum (59): 60", assertThrows(IllegalArgumentException.class,
                () -> CronSchedule.parse("60 * * * *", ZoneOffset.UTC)).getMessage());
        assertEquals("unrecognized descriptor: @often", assertThrows(IllegalArgumentException.class,
                () -> CronSchedule.parse("@often", ZoneOffset.UTC)).getMessage());
        assertEquals("provided bad location Mars/Olympus: unknown time zone Mars/Olympus",
                assertThrows(IllegalArgumentException.class,
                        () -> CronSchedule.parse("TZ=Mars/Olympus * * * * *", ZoneOffset.UTC)).getMessage());
        assertNull(CronSchedule.parse("0 0 31 2 *", ZoneOffset.UTC).next(Instant.parse("2026-01-01T00:00:00Z")));
    }
}

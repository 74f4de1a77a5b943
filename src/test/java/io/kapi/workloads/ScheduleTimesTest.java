package io.kapi.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ScheduleTimesTest {

    private static final CronSchedule EVERY_MINUTE = CronSchedule.parse("*/1 * * * *", ZoneOffset.UTC);
    private static final CronSchedule HOURLY = CronSchedule.parse("@hourly", ZoneOffset.UTC);

    private static Instant t(String s) {
        return Instant.parse(s);
    }

    @Test
    @DisplayName("nothing is due before the first time after creation; then that time, and the next sync 100 ms after the next")
    void firstRun() {
        ScheduleTimes before = new ScheduleTimes(t("2026-03-01T10:00:20Z"), null, null, t("2026-03-01T10:00:50Z"));
        assertNull(before.mostRecent(EVERY_MINUTE, true).mostRecent());
        assertEquals(Duration.ofMillis(10_100), before.untilNext(EVERY_MINUTE));
        ScheduleTimes due = new ScheduleTimes(t("2026-03-01T10:00:20Z"), null, null, t("2026-03-01T10:01:00.050Z"));
        assertEquals(t("2026-03-01T10:01:00Z"), due.mostRecent(EVERY_MINUTE, true).mostRecent());
        assertEquals(Duration.ofMillis(60_050), due.untilNext(EVERY_MINUTE));
    }

    @Test
    @DisplayName("after missed times only the latest is due; more than 100 missed is flagged")
    void missed() {
        ScheduleTimes few = new ScheduleTimes(t("2026-03-01T00:00:00Z"), t("2026-03-01T10:00:00Z"), null,
                t("2026-03-01T10:05:30Z"));
        ScheduleTimes.Recent recent = few.mostRecent(EVERY_MINUTE, true);
        assertEquals(t("2026-03-01T10:05:00Z"), recent.mostRecent());
        assertFalse(recent.tooMany());
        ScheduleTimes many = new ScheduleTimes(t("2026-01-01T00:00:00Z"), null, null, t("2026-03-01T10:30:00Z"));
        recent = many.mostRecent(HOURLY, true);
        assertEquals(t("2026-03-01T10:00:00Z"), recent.mostRecent());
        assertTrue(recent.tooMany());
    }

    @Test
    @DisplayName("startingDeadlineSeconds moves the start of counting: older times are not due at all")
    void deadline() {
        ScheduleTimes late = new ScheduleTimes(t("2026-03-01T00:00:00Z"), t("2026-03-01T09:00:00Z"), 600L,
                t("2026-03-01T10:30:00Z"));
        assertNull(late.mostRecent(HOURLY, true).mostRecent(), "10:00 is older than now - 600 s");
        assertEquals(t("2026-03-01T10:00:00Z"), late.mostRecent(HOURLY, false).mostRecent());
        ScheduleTimes inTime = new ScheduleTimes(t("2026-03-01T00:00:00Z"), t("2026-03-01T09:00:00Z"), 3600L,
                t("2026-03-01T10:30:00Z"));
        assertEquals(t("2026-03-01T10:00:00Z"), inTime.mostRecent(HOURLY, true).mostRecent());
    }

    @Test
    @DisplayName("job names carry the scheduled time in minutes since the epoch")
    void jobName() {
        assertEquals("backup-29538720", CronJobController.jobName("backup", t("2026-03-01T00:00:00Z")));
    }
}

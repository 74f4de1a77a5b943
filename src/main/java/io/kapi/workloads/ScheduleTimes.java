package io.kapi.workloads;

import java.time.Duration;
import java.time.Instant;

/**
 * kube's {@code mostRecentScheduleTime} and {@code nextScheduleTimeDuration} for one CronJob: which
 * scheduled time, if any, is due now, counted from its last schedule time (else its creation), or from
 * {@code now - startingDeadlineSeconds} when that is later.
 *
 * @param created the CronJob's creationTimestamp
 * @param lastSchedule its status.lastScheduleTime, or null
 * @param startingDeadline its spec.startingDeadlineSeconds, or null
 */
record ScheduleTimes(Instant created, Instant lastSchedule, Long startingDeadline, Instant now) {

    /** More missed times than this is kube's "too many" (an event, the latest still runs). */
    static final int TOO_MANY = 100;

    /**
     * @param earliest where counting started
     * @param mostRecent the latest scheduled time after {@code earliest} and not after now, or null
     * @param missedAny whether counting found any time due
     * @param tooMany whether more than {@link #TOO_MANY} were missed
     */
    record Recent(Instant earliest, Instant mostRecent, boolean missedAny, boolean tooMany) {
    }

    /** @throws IllegalArgumentException when two consecutive times are less than a second apart */
    Recent mostRecent(CronSchedule schedule, boolean withDeadline) {
        Instant earliest = lastSchedule != null ? lastSchedule : created;
        if (withDeadline && startingDeadline != null) {
            Instant deadline = now.minusSeconds(startingDeadline);
            if (deadline.isAfter(earliest)) {
                earliest = deadline;
            }
        }
        Instant t1 = schedule.next(earliest);
        Instant t2 = t1 == null ? null : schedule.next(t1);
        if (t1 == null || now.isBefore(t1)) {
            return new Recent(earliest, null, false, false);
        }
        if (t2 == null || now.isBefore(t2)) {
            return new Recent(earliest, t1, true, false);
        }
        long between = Math.round(Duration.between(t1, t2).toMillis() / 1000.0);
        if (between < 1) {
            throw new IllegalArgumentException("time difference between two schedules is less than 1 second");
        }
        long missed = Duration.between(t1, now).getSeconds() / between + 1;
        Instant potentialEarliest = t1.plusSeconds((missed - 2) * between);
        Instant mostRecent = null;
        for (Instant t = schedule.next(potentialEarliest); t != null && !t.isAfter(now); t = schedule.next(t)) {
            mostRecent = t;
        }
        return new Recent(earliest, mostRecent, true, missed > TOO_MANY);
    }

    /** How long until 100 ms after the next scheduled time, or null when there is none. */
    Duration untilNext(CronSchedule schedule) {
        Instant base;
        try {
            Recent r = mostRecent(schedule, false);
            base = r.mostRecent() != null ? r.mostRecent() : r.missedAny() ? now : r.earliest();
        } catch (IllegalArgumentException e) {
            base = now;
        }
        Instant next = schedule.next(base);
        return next == null ? null : Duration.between(now, next.plus(CronJobController.NEXT_DELTA));
    }
}

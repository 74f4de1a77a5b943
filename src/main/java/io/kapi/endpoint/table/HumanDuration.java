package io.kapi.endpoint.table;

import java.time.Duration;
import java.time.Instant;

/**
 * Durations for humans, exactly as {@code k8s.io/apimachinery/pkg/util/duration} prints them: the AGE of
 * {@code kubectl get} ({@code 5s}, {@code 3m2s}, {@code 2d5h}, {@code <invalid>} for a time well in the
 * future).
 *
 * <p>Both forms tolerate a clock skew of up to two seconds: {@code -1.9s} prints as {@code 0s}.
 */
public final class HumanDuration {

    /** What kube prints for a timestamp that is not set. */
    public static final String UNKNOWN = "<unknown>";

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private HumanDuration() {
    }

    /** About two or three significant figures, as {@code duration.HumanDuration}: {@code 90s}, {@code 3m2s}, {@code 5h4m}, {@code 2d5h}, {@code 3y12d}. */
    public static String human(Duration d) {
        long nanos = saturatedNanos(d);
        long seconds = nanos / NANOS_PER_SECOND;
        if (seconds < -1) {
            return "<invalid>";
        } else if (seconds < 0) {
            return "0s";
        } else if (seconds < 60 * 2) {
            return seconds + "s";
        }
        long minutes = seconds / 60;
        if (minutes < 10) {
            long s = seconds % 60;
            return s == 0 ? minutes + "m" : minutes + "m" + s + "s";
        } else if (minutes < 60 * 3) {
            return minutes + "m";
        }
        long hours = minutes / 60;
        if (hours < 8) {
            long m = minutes % 60;
            return m == 0 ? hours + "h" : hours + "h" + m + "m";
        } else if (hours < 48) {
            return hours + "h";
        } else if (hours < 24 * 8) {
            long h = hours % 24;
            return h == 0 ? hours / 24 + "d" : hours / 24 + "d" + h + "h";
        } else if (hours < 24 * 365 * 2) {
            return hours / 24 + "d";
        } else if (hours < 24 * 365 * 8) {
            long dy = (hours / 24) % 365;
            return dy == 0 ? hours / 24 / 365 + "y" : hours / 24 / 365 + "y" + dy + "d";
        }
        return hours / 24 / 365 + "y";
    }

    /** One unit only, as {@code duration.ShortHumanDuration}: {@code 59s}, {@code 59m}, {@code 23h}, {@code 364d}, {@code 2y}. */
    public static String shortHuman(Duration d) {
        long nanos = saturatedNanos(d);
        long seconds = nanos / NANOS_PER_SECOND;
        if (seconds < -1) {
            return "<invalid>";
        } else if (seconds < 0) {
            return "0s";
        } else if (seconds < 60) {
            return seconds + "s";
        } else if (seconds / 60 < 60) {
            return seconds / 60 + "m";
        }
        long hours = seconds / 3600;
        if (hours < 24) {
            return hours + "h";
        } else if (hours < 24 * 365) {
            return hours / 24 + "d";
        }
        return hours / 24 / 365 + "y";
    }

    /** The age of {@code timestamp} at {@code now}, or {@code <unknown>} when it is null (kube's {@code translateTimestampSince}). */
    public static String since(Instant timestamp, Instant now) {
        return timestamp == null ? UNKNOWN : human(Duration.between(timestamp, now));
    }

    /** Go's time.Duration is int64 nanoseconds: longer spans saturate rather than overflow. */
    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException overflow) {
            return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }
}

package io.kapi.machinery;

import java.time.Instant;

/**
 * The RFC 3339 times Kubernetes objects hold, read by hand: {@code 2006-01-02T15:04:05Z} (every
 * {@code metav1.Time}), with a fraction of up to nine digits ({@code metav1.MicroTime} has six) and a
 * {@code Z} or a {@code +hh:mm} offset. A pod holds about ten times (its creation, its managed fields',
 * its conditions'), every Lease a {@code MicroTime} renewed every few seconds: java.time's ISO parser took
 * about 0.5 us for a time with a fraction, this about 50 ns (and a little less than {@code LocalDate} for
 * the whole seconds it used to read by hand).
 *
 * <p>Anything else (a lowercase {@code t}, an offset with seconds, a leap second, a five-digit year, an
 * invalid date) is left to the caller's general parser ({@code GoTime.parseTime}'s, which decides and words the
 * error; managed fields' order), java.time's; for every string read here both give the same instant
 * (GoTimeParseTest, ManagedFieldsTimeTest).
 */
public final class Rfc3339 {

    private static final int[] DAYS_BEFORE_MONTH = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
    /** Days from 0000-01-01 to 1970-01-01 in the proleptic Gregorian calendar. */
    private static final long DAYS_0000_TO_1970 = 719_528;
    private static final int[] SCALE = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000,
        1_000_000_000};
    /** The largest offset java.time (and so the general parser) accepts: 18 hours. */
    private static final int MAX_OFFSET_MINUTES = 18 * 60;

    private Rfc3339() {
    }

    /** The instant {@code s} names, or null if it is not of the form above or not a valid date and time. */
    public static Instant parse(String s) {
        int n = s.length();
        if (n < 20 || s.charAt(4) != '-' || s.charAt(7) != '-' || s.charAt(10) != 'T' || s.charAt(13) != ':'
                || s.charAt(16) != ':') {
            return null;
        }
        int year = digits(s, 0, 4);
        int month = digits(s, 5, 2);
        int day = digits(s, 8, 2);
        int hour = digits(s, 11, 2);
        int minute = digits(s, 14, 2);
        int second = digits(s, 17, 2);
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > lengthOfMonth(year, month) || hour < 0
                || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
            return null;
        }
        int at = 19;
        int nanos = 0;
        if (s.charAt(at) == '.') {
            int start = ++at;
            while (at < n && at - start < 9 && isDigit(s.charAt(at))) {
                nanos = nanos * 10 + (s.charAt(at++) - '0');
            }
            if (at == start || at < n && isDigit(s.charAt(at))) {
                return null; // no digits, or more than nine
            }
            nanos *= SCALE[9 - (at - start)];
        }
        int offset = offsetSeconds(s, at);
        if (offset == Integer.MIN_VALUE) {
            return null;
        }
        long seconds = epochDay(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset;
        return Instant.ofEpochSecond(seconds, nanos);
    }

    /** The offset that ends {@code s} at {@code at} ({@code Z} or {@code ±hh:mm}) in seconds, or MIN_VALUE. */
    private static int offsetSeconds(String s, int at) {
        int n = s.length();
        if (at == n - 1 && s.charAt(at) == 'Z') {
            return 0;
        }
        char sign = at < n ? s.charAt(at) : 0;
        if (at != n - 6 || (sign != '+' && sign != '-') || s.charAt(at + 3) != ':') {
            return Integer.MIN_VALUE;
        }
        int hours = digits(s, at + 1, 2);
        int minutes = digits(s, at + 4, 2);
        if (hours < 0 || minutes < 0 || minutes > 59 || hours * 60 + minutes > MAX_OFFSET_MINUTES) {
            return Integer.MIN_VALUE;
        }
        int seconds = hours * 3600 + minutes * 60;
        return sign == '-' ? -seconds : seconds;
    }

    /** Days since 1970-01-01 of a date of year 0 to 9999 (proleptic Gregorian, as java.time counts them). */
    public static long epochDay(int year, int month, int day) {
        // leap years before this one, counting year 0: every fourth, but not every hundredth, but every 400th
        long leapsBefore = (year + 3) / 4 - (year + 99) / 100 + (year + 399) / 400;
        int dayOfYear = DAYS_BEFORE_MONTH[month - 1] + (month > 2 && leap(year) ? 1 : 0) + day - 1;
        return 365L * year + leapsBefore + dayOfYear - DAYS_0000_TO_1970;
    }

    private static int lengthOfMonth(int year, int month) {
        return switch (month) {
            case 2 -> leap(year) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    private static boolean leap(int year) {
        return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** The number of {@code n} ASCII digits at {@code from}, or -1. */
    private static int digits(String s, int from, int n) {
        int v = 0;
        for (int i = from; i < from + n; i++) {
            char c = s.charAt(i);
            if (!isDigit(c)) {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }
}

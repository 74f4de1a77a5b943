package io.kapi.machinery.protobuf;

import io.kapi.machinery.Rfc3339;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;

/** Go's JSON forms of {@code metav1.Time}, {@code metav1.MicroTime} and {@code time.Duration}. */
final class GoTime {

    private static final DateTimeFormatter SECONDS =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter MICROS =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    private static final long SECOND = 1_000_000_000L;
    private static final Map<String, Long> UNITS = Map.of(
            "ns", 1L, "us", 1_000L, "\u00b5s", 1_000L, "\u03bcs", 1_000L, "ms", 1_000_000L,
            "s", SECOND, "m", 60 * SECOND, "h", 3600 * SECOND);

    private GoTime() {
    }

    /** {@code metav1.Time}: {@code 2006-01-02T15:04:05Z}. */
    static String formatTime(long seconds) {
        Formatted last = lastFormatted;
        if (last.seconds() == seconds) {
            return last.text(); // an object's timestamps are mostly one second (creation, its managed fields)
        }
        String text = seconds >= 0 && seconds < YEAR_10000 ? utcSeconds(seconds) : SECONDS.format(Instant.ofEpochSecond(seconds));
        lastFormatted = new Formatted(seconds, text);
        return text;
    }

    /** The last time {@link #formatTime} formatted. */
    private record Formatted(long seconds, String text) {
    }

    private static volatile Formatted lastFormatted = new Formatted(Long.MIN_VALUE, "");

    /** 10000-01-01T00:00:00Z: the times before it (from 1970) have four-digit years, formatted by hand. */
    private static final long YEAR_10000 = 253_402_300_800L;

    /** {@code uuuu-MM-dd'T'HH:mm:ss'Z'} for 1970-9999 without a formatter (its set-up cost more than the digits). */
    private static String utcSeconds(long seconds) {
        java.time.LocalDate day = java.time.LocalDate.ofEpochDay(seconds / 86_400);
        int inDay = (int) (seconds % 86_400);
        byte[] b = {'0', '0', '0', '0', '-', '0', '0', '-', '0', '0', 'T', '0', '0', ':', '0', '0', ':', '0', '0', 'Z'};
        digits(b, 0, day.getYear(), 4);
        digits(b, 5, day.getMonthValue(), 2);
        digits(b, 8, day.getDayOfMonth(), 2);
        digits(b, 11, inDay / 3600, 2);
        digits(b, 14, inDay / 60 % 60, 2);
        digits(b, 17, inDay % 60, 2);
        return new String(b, java.nio.charset.StandardCharsets.US_ASCII);
    }

    private static void digits(byte[] b, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            b[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
    }

    /** {@code metav1.MicroTime}: {@code 2006-01-02T15:04:05.000000Z}. */
    static String formatMicroTime(long seconds, int nanos) {
        return MICROS.format(Instant.ofEpochSecond(seconds, nanos));
    }

    /**
     * Parses RFC 3339, as Go's {@code time.Parse(time.RFC3339, s)}: the forms Kubernetes writes by hand
     * ({@link Rfc3339}), any other through java.time's ISO parser.
     *
     * @throws IllegalArgumentException if {@code s} is not RFC 3339
     */
    static Instant parseTime(String s) {
        Instant t = Rfc3339.parse(s);
        if (t != null) {
            return t;
        }
        try {
            return OffsetDateTime.parse(s, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
        } catch (java.time.format.DateTimeParseException e) {
            throw new IllegalArgumentException("parsing time \"" + s + "\" as RFC 3339", e);
        }
    }

    /** Go's {@code time.Duration.String()}: {@code 1h2m3.5s}, {@code 1.5ms}, {@code 0s}. */
    static String formatDuration(long nanos) {
        if (nanos == 0) {
            return "0s";
        }
        String sign = nanos < 0 ? "-" : "";
        BigDecimal u = BigDecimal.valueOf(nanos).abs();
        if (u.compareTo(BigDecimal.valueOf(SECOND)) < 0) {
            long v = u.longValueExact();
            if (v < 1_000) {
                return sign + v + "ns";
            }
            return v < 1_000_000 ? sign + fraction(v, 3) + "\u00b5s" : sign + fraction(v, 6) + "ms";
        }
        BigDecimal[] secs = u.divideAndRemainder(BigDecimal.valueOf(SECOND));
        long whole = secs[0].longValueExact();
        String frac = fractionDigits(secs[1].longValueExact(), 9);
        StringBuilder out = new StringBuilder(sign);
        if (whole >= 3600) {
            out.append(whole / 3600).append('h');
        }
        if (whole >= 60) {
            out.append(whole / 60 % 60).append('m');
        }
        return out.append(whole % 60).append(frac).append('s').toString();
    }

    private static String fraction(long v, int digits) {
        long scale = (long) Math.pow(10, digits);
        return (v / scale) + fractionDigits(v % scale, digits);
    }

    /** {@code .5} for 500000000 of 9 digits; empty for 0. */
    private static String fractionDigits(long frac, int digits) {
        if (frac == 0) {
            return "";
        }
        String s = String.format("%0" + digits + "d", frac).replaceAll("0+$", "");
        return "." + s;
    }

    /**
     * Parses a Go duration such as {@code 1h30m}, {@code 1.5s} or {@code -300ms}, as
     * {@code time.ParseDuration}.
     *
     * @throws IllegalArgumentException if {@code s} is not a duration
     */
    static long parseDuration(String s) {
        String rest = s;
        boolean negative = false;
        if (!rest.isEmpty() && (rest.charAt(0) == '-' || rest.charAt(0) == '+')) {
            negative = rest.charAt(0) == '-';
            rest = rest.substring(1);
        }
        if (rest.equals("0")) {
            return 0;
        }
        if (rest.isEmpty()) {
            throw invalidDuration(s);
        }
        BigDecimal total = BigDecimal.ZERO;
        int i = 0;
        while (i < rest.length()) {
            int start = i;
            while (i < rest.length() && (Character.isDigit(rest.charAt(i)) || rest.charAt(i) == '.')) {
                i++;
            }
            int unitStart = i;
            while (i < rest.length() && !Character.isDigit(rest.charAt(i)) && rest.charAt(i) != '.') {
                i++;
            }
            Long unit = UNITS.get(rest.substring(unitStart, i));
            if (start == unitStart || unit == null) {
                throw invalidDuration(s);
            }
            try {
                total = total.add(new BigDecimal(rest.substring(start, unitStart)).multiply(BigDecimal.valueOf(unit)));
            } catch (NumberFormatException e) {
                throw invalidDuration(s);
            }
        }
        long nanos = total.longValue();
        return negative ? -nanos : nanos;
    }

    private static IllegalArgumentException invalidDuration(String s) {
        return new IllegalArgumentException("time: invalid duration \"" + s + "\"");
    }
}

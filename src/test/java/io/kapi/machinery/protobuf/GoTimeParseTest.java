package io.kapi.machinery.protobuf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kapi.machinery.Rfc3339;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@link GoTime#parseTime} (through {@link Rfc3339}) against the parser it had before, string for string. */
class GoTimeParseTest {

    private static final String MUTATIONS = "0123456789-:.TZtz+ x";

    @Test
    @DisplayName("every day of years 0 to 9999 counts as java.time counts it")
    void everyDay() {
        for (LocalDate d = LocalDate.of(0, 1, 1); d.getYear() < 10_000; d = d.plusDays(1)) {
            assertEquals(d.toEpochDay(), Rfc3339.epochDay(d.getYear(), d.getMonthValue(), d.getDayOfMonth()),
                    d::toString);
        }
    }

    @Test
    @DisplayName("edge cases (leap days, month ends, fractions, offsets, forms left to java.time) parse as before")
    void edges() {
        List<String> cases = new ArrayList<>(List.of("2025-06-01T10:00:00Z", "1970-01-01T00:00:00Z",
                "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "0000-02-29T00:00:00Z", "1900-02-29T00:00:00Z",
                "2000-02-29T12:00:00Z", "2100-02-29T12:00:00Z", "2024-02-29T23:59:59Z", "2023-02-29T00:00:00Z",
                "2024-04-31T00:00:00Z", "2024-04-30T00:00:00Z", "2024-12-32T00:00:00Z", "2024-13-01T00:00:00Z",
                "2024-00-10T00:00:00Z", "2024-01-00T00:00:00Z", "2024-01-01T24:00:00Z", "2024-01-01T23:60:00Z",
                "2024-01-01T23:59:60Z", "2024-01-01T10:00:00.5Z", "2024-01-01T10:00:00.123456Z",
                "2024-01-01T10:00:00.123456789Z", "2024-01-01T10:00:00.1234567891Z", "2024-01-01T10:00:00.Z",
                "2024-01-01T10:00:00.000000Z", "2024-01-01T10:00:00+01:00", "2024-01-01T10:00:00-07:30",
                "2024-01-01T10:00:00+18:00", "2024-01-01T10:00:00-18:00", "2024-01-01T10:00:00+18:01",
                "2024-01-01T10:00:00+19:00", "2024-01-01T10:00:00+05:60", "2024-01-01T10:00:00-00:00",
                "2024-01-01T10:00:00+00:00", "2024-01-01T10:00:00+01:00:30", "2024-01-01T10:00:00+0100",
                "2024-01-01T10:00:00+01", "0000-01-01T00:00:00+01:00", "9999-12-31T23:59:59-18:00",
                "2024-01-01t10:00:00Z", "2024-01-01T10:00:00z", "2024-01-01 10:00:00Z", "2024-01-01T10:00Z",
                "2024-01-01T10:00:00", "+10000-01-01T00:00:00Z", "-0001-01-01T00:00:00Z", "2024-1-01T10:00:00Z",
                "2024-01-01T10:00:00.5+01:00", "2024-01-01T10:00:00.999999999-01:30", "", "yesterday",
                "2024-01-01T10:00:00ZZ", "2024-01-01T10:00:00.12a4Z", "２０２４-01-01T10:00:00Z"));
        for (String s : cases) {
            assertSameAsBefore(s);
        }
    }

    @Test
    @DisplayName("the forms Kubernetes writes are read by hand, not left to java.time")
    void byHand() {
        for (String s : List.of("2025-06-01T10:00:00Z", "2025-06-01T10:00:00.123456Z", "2025-06-01T10:00:00.5+01:00",
                "2025-06-01T10:00:00-07:30")) {
            assertNotNull(Rfc3339.parse(s), s);
        }
    }

    @Test
    @DisplayName("random times (any year, fraction, offset) and random one-character mutations of them parse as before")
    void random() {
        SplittableRandom random = new SplittableRandom(37);
        for (int i = 0; i < 200_000; i++) {
            String s = time(random);
            assertSameAsBefore(s);
            char[] mutated = s.toCharArray();
            mutated[random.nextInt(mutated.length)] = MUTATIONS.charAt(random.nextInt(MUTATIONS.length()));
            assertSameAsBefore(new String(mutated));
        }
    }

    /** A time of year 0 to 9999 with or without a fraction (up to ten digits) and with some offset. */
    private static String time(SplittableRandom random) {
        StringBuilder s = new StringBuilder("%04d-%02d-%02dT%02d:%02d:%02d".formatted(random.nextInt(10_000),
                1 + random.nextInt(12), 1 + random.nextInt(31), random.nextInt(24), random.nextInt(60),
                random.nextInt(60)));
        if (random.nextInt(3) == 0) {
            s.append('.');
            for (int d = 1 + random.nextInt(10); d > 0; d--) {
                s.append((char) ('0' + random.nextInt(10)));
            }
        }
        switch (random.nextInt(4)) {
            case 0, 1 -> s.append('Z');
            case 2 -> s.append(random.nextBoolean() ? '+' : '-')
                    .append("%02d:%02d".formatted(random.nextInt(20), random.nextInt(61)));
            default -> s.append(random.nextBoolean() ? "+00:00" : "-00:00");
        }
        return s.toString();
    }

    private static void assertSameAsBefore(String s) {
        Instant before;
        try {
            before = before(s);
        } catch (DateTimeParseException e) {
            assertThrows(IllegalArgumentException.class, () -> GoTime.parseTime(s), s);
            return;
        }
        assertEquals(before, GoTime.parseTime(s), s);
    }

    /**
     * {@code GoTime.parseTime} before Rfc3339: {@code 2006-01-02T15:04:05Z} read by hand through
     * {@code LocalDate}, anything else by java.time's ISO parser.
     */
    private static Instant before(String s) {
        if (s.length() == 20 && s.charAt(4) == '-' && s.charAt(7) == '-' && s.charAt(10) == 'T'
                && s.charAt(13) == ':' && s.charAt(16) == ':' && s.charAt(19) == 'Z') {
            int year = digits(s, 0, 4);
            int month = digits(s, 5, 2);
            int day = digits(s, 8, 2);
            int hour = digits(s, 11, 2);
            int minute = digits(s, 14, 2);
            int second = digits(s, 17, 2);
            if (year >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour >= 0 && hour <= 23
                    && minute >= 0 && minute <= 59 && second >= 0 && second <= 59
                    && day <= java.time.YearMonth.of(year, month).lengthOfMonth()) {
                long days = LocalDate.of(year, month, day).toEpochDay();
                return Instant.ofEpochSecond(days * 86_400 + hour * 3600L + minute * 60L + second);
            }
        }
        return OffsetDateTime.parse(s, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
    }

    private static int digits(String s, int from, int n) {
        int v = 0;
        for (int i = from; i < from + n; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }
}

package io.kapi.audit;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * kube's {@code metav1.MicroTime} form of the event's time stamps ({@code 2006-01-02T15:04:05.000000Z}),
 * written twice per stage of every audited request: the seconds part is formatted once per second and
 * kept, the microseconds appended as digits (a {@link DateTimeFormatter} per stamp cost more than the
 * rest of the event).
 */
final class MicroTimestamp {

    private static final DateTimeFormatter SECONDS =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC);

    /** The last second formatted. */
    private record Second(long epochSecond, String text) {
    }

    private static volatile Second last = new Second(Long.MIN_VALUE, "");

    private MicroTimestamp() {
    }

    static String format(Instant t) {
        Second s = last;
        if (s.epochSecond() != t.getEpochSecond()) {
            s = new Second(t.getEpochSecond(), SECONDS.format(t));
            last = s;
        }
        int micros = t.getNano() / 1000;
        char[] out = new char[s.text().length() + 8];
        s.text().getChars(0, s.text().length(), out, 0);
        int at = s.text().length();
        out[at++] = '.';
        for (int div = 100_000; div > 0; div /= 10) {
            out[at++] = (char) ('0' + micros / div % 10);
        }
        out[at] = 'Z';
        return new String(out);
    }
}

package io.kapi.machinery;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations written as Go writes them, e.g. {@code 1m30s}, {@code 500ms}, {@code 1.5h}, {@code 0}. */
public final class GoDuration {

    private static final Pattern PART = Pattern.compile("([0-9]*\\.?[0-9]+)(ns|us|µs|μs|ms|s|m|h)");
    private static final Map<String, Long> NANOS = Map.of("ns", 1L, "us", 1_000L, "µs", 1_000L, "μs", 1_000L,
            "ms", 1_000_000L, "s", 1_000_000_000L, "m", 60_000_000_000L, "h", 3_600_000_000_000L);

    private GoDuration() {
    }

    /** @throws IllegalArgumentException with Go's wording for text that is not a duration */
    public static Duration parse(String text) {
        String s = text.startsWith("+") ? text.substring(1) : text;
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        boolean negative = s.startsWith("-");
        if (negative) {
            s = s.substring(1);
        }
        Matcher m = PART.matcher(s);
        BigDecimal nanos = BigDecimal.ZERO;
        int end = 0;
        while (m.find() && m.start() == end) {
            nanos = nanos.add(new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(NANOS.get(m.group(2)))));
            end = m.end();
        }
        if (s.isEmpty() || end != s.length()) {
            throw new IllegalArgumentException("time: invalid duration \"" + text + "\"");
        }
        Duration d = Duration.ofNanos(nanos.longValue());
        return negative ? d.negated() : d;
    }

    /**
     * The duration as Go's {@code time.Duration.String} writes it for whole and fractional seconds:
     * {@code 0s}, {@code 10s}, {@code 2m0s}, {@code 1h0m0s}, {@code 1.5s} (sub-second ones in {@code ms}).
     */
    public static String format(Duration d) {
        if (d.isZero()) {
            return "0s";
        }
        if (d.isNegative()) {
            return "-" + format(d.negated());
        }
        if (d.compareTo(Duration.ofSeconds(1)) < 0) {
            return BigDecimal.valueOf(d.toNanos(), 6).stripTrailingZeros().toPlainString() + "ms";
        }
        String seconds = BigDecimal.valueOf(d.toSecondsPart() * 1_000_000_000L + d.toNanosPart(), 9)
                .stripTrailingZeros().toPlainString() + "s";
        long hours = d.toHours();
        if (hours > 0) {
            return hours + "h" + d.toMinutesPart() + "m" + seconds;
        }
        return d.toMinutes() > 0 ? d.toMinutes() + "m" + seconds : seconds;
    }
}

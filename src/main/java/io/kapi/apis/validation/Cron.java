package io.kapi.apis.validation;

import com.google.re2j.Pattern;
import io.kapi.machinery.GoStrings;
import java.util.List;
import java.util.Map;

/**
 * The syntax check of {@code robfig/cron/v3}'s {@code ParseStandard} (five fields or a {@code @descriptor}),
 * which kube-apiserver runs on {@code CronJob.spec.schedule}; returns its error text, or null when valid.
 */
final class Cron {

    private record Bounds(int min, int max, Map<String, Integer> names) {
    }

    private static final Map<String, Integer> MONTHS = Map.ofEntries(Map.entry("jan", 1), Map.entry("feb", 2),
            Map.entry("mar", 3), Map.entry("apr", 4), Map.entry("may", 5), Map.entry("jun", 6), Map.entry("jul", 7),
            Map.entry("aug", 8), Map.entry("sep", 9), Map.entry("oct", 10), Map.entry("nov", 11), Map.entry("dec", 12));
    private static final Map<String, Integer> DAYS = Map.of("sun", 0, "mon", 1, "tue", 2, "wed", 3, "thu", 4,
            "fri", 5, "sat", 6);
    private static final List<Bounds> FIELDS = List.of(new Bounds(0, 59, Map.of()), new Bounds(0, 23, Map.of()),
            new Bounds(1, 31, Map.of()), new Bounds(1, 12, MONTHS), new Bounds(0, 6, DAYS));
    private static final List<String> DESCRIPTORS = List.of("@yearly", "@annually", "@monthly", "@weekly", "@daily",
            "@midnight", "@hourly");
    private static final Pattern DURATION = Pattern.compile("([0-9]*(\\.[0-9]*)?(ns|us|µs|ms|s|m|h))+");

    private Cron() {
    }

    static String check(String spec) {
        if (spec.isEmpty()) {
            return "empty spec string";
        }
        String s = spec;
        if (s.startsWith("TZ=") || s.startsWith("CRON_TZ=")) {
            int space = s.indexOf(' ');
            String zone = s.substring(s.indexOf('=') + 1, space < 0 ? s.length() : space);
            if (TimeZones.check(zone) != null) {
                return "provided bad location " + zone + ": " + TimeZones.check(zone);
            }
            s = space < 0 ? "" : s.substring(space).strip();
        }
        if (s.startsWith("@")) {
            if (DESCRIPTORS.contains(s)) {
                return null;
            }
            if (s.startsWith("@every ")) {
                String d = s.substring(7);
                return DURATION.matcher(d).matches() && !d.isEmpty() ? null
                        : "failed to parse duration " + s + ": time: invalid duration " + GoStrings.quote(d);
            }
            return "unrecognized descriptor: " + s;
        }
        String[] fields = s.isBlank() ? new String[0] : s.strip().split("\\s+");
        if (fields.length != 5) {
            return "expected exactly 5 fields, found " + fields.length + ": [" + String.join(" ", fields) + "]";
        }
        for (int i = 0; i < 5; i++) {
            for (String expr : fields[i].split(",")) {
                if (expr.isEmpty()) {
                    continue;
                }
                String err = range(expr, FIELDS.get(i));
                if (err != null) {
                    return err;
                }
            }
        }
        return null;
    }

    private static String range(String expr, Bounds r) {
        String[] rangeAndStep = expr.split("/", -1);
        String[] lowAndHigh = rangeAndStep[0].split("-", -1);
        long start;
        long end;
        Object parsed;
        if (lowAndHigh[0].equals("*") || lowAndHigh[0].equals("?")) {
            start = r.min();
            end = r.max();
        } else {
            parsed = intOrName(lowAndHigh[0], r.names());
            if (parsed instanceof String err) {
                return err;
            }
            start = (Long) parsed;
            switch (lowAndHigh.length) {
                case 1 -> end = start;
                case 2 -> {
                    parsed = intOrName(lowAndHigh[1], r.names());
                    if (parsed instanceof String err) {
                        return err;
                    }
                    end = (Long) parsed;
                }
                default -> {
                    return "too many hyphens: " + expr;
                }
            }
        }
        long step;
        switch (rangeAndStep.length) {
            case 1 -> step = 1;
            case 2 -> {
                parsed = mustParseInt(rangeAndStep[1]);
                if (parsed instanceof String err) {
                    return err;
                }
                step = (Long) parsed;
                if (lowAndHigh.length == 1) {
                    end = r.max();
                }
            }
            default -> {
                return "too many slashes: " + expr;
            }
        }
        if (start < r.min()) {
            return "beginning of range (%d) below minimum (%d): %s".formatted(start, r.min(), expr);
        }
        if (end > r.max()) {
            return "end of range (%d) above maximum (%d): %s".formatted(end, r.max(), expr);
        }
        if (start > end) {
            return "beginning of range (%d) beyond end of range (%d): %s".formatted(start, end, expr);
        }
        if (step == 0) {
            return "step of range should be a positive number: " + expr;
        }
        return null;
    }

    /** A Long, or the error text. */
    private static Object intOrName(String expr, Map<String, Integer> names) {
        Integer named = names.get(expr.toLowerCase(java.util.Locale.ROOT));
        return named != null ? Long.valueOf(named) : mustParseInt(expr);
    }

    private static Object mustParseInt(String expr) {
        long num;
        if (!expr.matches("[+-]?[0-9]+")) {
            return "failed to parse int from " + expr + ": strconv.Atoi: parsing " + GoStrings.quote(expr) + ": invalid syntax";
        }
        try {
            num = Integer.parseInt(expr.startsWith("+") ? expr.substring(1) : expr);
        } catch (NumberFormatException e) {
            return "failed to parse int from " + expr + ": strconv.Atoi: parsing " + GoStrings.quote(expr)
                    + ": value out of range";
        }
        if (num < 0) {
            return "negative number (" + num + ") not allowed: " + expr;
        }
        return num;
    }
}

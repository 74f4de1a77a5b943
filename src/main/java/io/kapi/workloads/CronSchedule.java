package io.kapi.workloads;

import io.kapi.machinery.GoDuration;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

/**
 * A CronJob's schedule as kube's cronjob controller parses it ({@code robfig/cron/v3 ParseStandard}): five
 * fields (minute, hour, day of month, month, day of week; names such as {@code jan} and {@code mon}; lists,
 * ranges, steps, {@code *} and {@code ?}), a descriptor ({@code @yearly}, {@code @annually},
 * {@code @monthly}, {@code @weekly}, {@code @daily}, {@code @midnight}, {@code @hourly},
 * {@code @every <duration>}), optionally after {@code TZ=<zone>} or {@code CRON_TZ=<zone>}. Days match as
 * cron's do: when day of month and day of week are both restricted, either may match.
 */
sealed interface CronSchedule {

    /** The first activation strictly after {@code t} (to the second); null when none within five years. */
    Instant next(Instant t);

    /**
     * @param zone the zone of a schedule that names none (kube-controller-manager's local time)
     * @throws IllegalArgumentException with robfig's message, as kube's UnparseableSchedule event shows it
     */
    static CronSchedule parse(String text, ZoneId zone) {
        String spec = text.strip();
        if (spec.isEmpty()) {
            throw new IllegalArgumentException("empty spec string");
        }
        if (spec.startsWith("TZ=") || spec.startsWith("CRON_TZ=")) {
            int space = spec.indexOf(' ');
            String name = spec.substring(spec.indexOf('=') + 1, space < 0 ? spec.length() : space);
            try {
                zone = ZoneId.of(name);
            } catch (DateTimeException e) {
                throw new IllegalArgumentException("provided bad location " + name + ": unknown time zone " + name);
            }
            spec = space < 0 ? "" : spec.substring(space).strip();
        }
        if (spec.startsWith("@")) {
            return descriptor(spec, zone);
        }
        String[] fields = spec.split("\\s+");
        if (fields.length != 5) {
            throw new IllegalArgumentException("expected exactly 5 fields, found " + fields.length + ": ["
                    + String.join(" ", fields) + "]");
        }
        return new Spec(Field.parse(fields[0], 0, 59, Map.of()), Field.parse(fields[1], 0, 23, Map.of()),
                Field.parse(fields[2], 1, 31, Map.of()), Field.parse(fields[3], 1, 12, MONTHS),
                Field.parse(fields[4], 0, 6, DAYS), zone);
    }

    Map<String, Integer> MONTHS = Map.ofEntries(Map.entry("jan", 1), Map.entry("feb", 2), Map.entry("mar", 3),
            Map.entry("apr", 4), Map.entry("may", 5), Map.entry("jun", 6), Map.entry("jul", 7), Map.entry("aug", 8),
            Map.entry("sep", 9), Map.entry("oct", 10), Map.entry("nov", 11), Map.entry("dec", 12));
    Map<String, Integer> DAYS = Map.of("sun", 0, "mon", 1, "tue", 2, "wed", 3, "thu", 4, "fri", 5, "sat", 6);

    private static CronSchedule descriptor(String spec, ZoneId zone) {
        String standard = switch (spec) {
            case "@yearly", "@annually" -> "0 0 1 1 *";
            case "@monthly" -> "0 0 1 * *";
            case "@weekly" -> "0 0 * * 0";
            case "@daily", "@midnight" -> "0 0 * * *";
            case "@hourly" -> "0 * * * *";
            default -> null;
        };
        if (standard != null) {
            return parse(standard, zone);
        }
        if (spec.startsWith("@every ")) {
            Duration every;
            try {
                every = GoDuration.parse(spec.substring(7).strip());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("failed to parse duration " + spec + ": " + e.getMessage());
            }
            return new Every(every.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1)
                    : every.truncatedTo(ChronoUnit.SECONDS));
        }
        throw new IllegalArgumentException("unrecognized descriptor: " + spec);
    }

    /** {@code @every}: a constant delay, from the whole second. */
    record Every(Duration delay) implements CronSchedule {
        @Override
        public Instant next(Instant t) {
            return t.truncatedTo(ChronoUnit.SECONDS).plus(delay);
        }
    }

    /** One field's allowed values as bits; {@code star} when it began with {@code *} or {@code ?} and no step. */
    record Field(long bits, boolean star) {
        boolean has(int value) {
            return (bits & (1L << value)) != 0;
        }

        static Field parse(String text, int min, int max, Map<String, Integer> names) {
            long bits = 0;
            boolean star = false;
            for (String part : text.split(",")) {
                String[] rangeAndStep = part.split("/", -1);
                String[] lowAndHigh = rangeAndStep[0].split("-", -1);
                boolean single = lowAndHigh.length == 1;
                int start;
                int end;
                boolean partStar = false;
                if (lowAndHigh[0].equals("*") || lowAndHigh[0].equals("?")) {
                    start = min;
                    end = max;
                    partStar = true;
                } else {
                    start = value(lowAndHigh[0], names);
                    end = switch (lowAndHigh.length) {
                        case 1 -> start;
                        case 2 -> value(lowAndHigh[1], names);
                        default -> throw new IllegalArgumentException("too many hyphens: " + part);
                    };
                }
                int step = 1;
                if (rangeAndStep.length == 2) {
                    step = value(rangeAndStep[1], Map.of());
                    if (single) {
                        end = max; // "N/step" is "N-max/step"
                    }
                    if (step > 1) {
                        partStar = false;
                    }
                } else if (rangeAndStep.length > 2) {
                    throw new IllegalArgumentException("too many slashes: " + part);
                }
                if (start < min) {
                    throw new IllegalArgumentException("beginning of range (" + start + ") below minimum (" + min + "): " + part);
                }
                if (end > max) {
                    throw new IllegalArgumentException("end of range (" + end + ") above maximum (" + max + "): " + part);
                }
                if (start > end) {
                    throw new IllegalArgumentException("beginning of range (" + start + ") beyond end of range (" + end
                            + "): " + part);
                }
                if (step == 0) {
                    throw new IllegalArgumentException("step of range should be a positive number: " + part);
                }
                for (int v = start; v <= end; v += step) {
                    bits |= 1L << v;
                }
                star |= partStar;
            }
            return new Field(bits, star);
        }

        private static int value(String text, Map<String, Integer> names) {
            Integer named = names.get(text.toLowerCase(java.util.Locale.ROOT));
            if (named != null) {
                return named;
            }
            try {
                int v = Integer.parseInt(text);
                if (v < 0) {
                    throw new IllegalArgumentException("negative number (" + v + ") not allowed: " + text);
                }
                return v;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("failed to parse int from " + text + ": strconv.Atoi: parsing \""
                        + text + "\": invalid syntax");
            }
        }
    }

    /** Five fields in a zone: robfig's {@code SpecSchedule.Next}, field by field from the month down. */
    record Spec(Field minute, Field hour, Field dom, Field month, Field dow, ZoneId zone) implements CronSchedule {

        @Override
        public Instant next(Instant from) {
            ZonedDateTime t = from.atZone(zone).truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
            int yearLimit = t.getYear() + 5;
            boolean added = false;
            wrap:
            while (true) {
                if (t.getYear() > yearLimit) {
                    return null;
                }
                while (!month.has(t.getMonthValue())) {
                    if (!added) {
                        added = true;
                        t = t.withDayOfMonth(1).truncatedTo(ChronoUnit.DAYS);
                    }
                    t = t.plusMonths(1);
                    if (t.getMonthValue() == 1) {
                        continue wrap;
                    }
                }
                while (!dayMatches(t)) {
                    if (!added) {
                        added = true;
                        t = t.truncatedTo(ChronoUnit.DAYS);
                    }
                    t = t.plusDays(1);
                    if (t.getDayOfMonth() == 1) {
                        continue wrap;
                    }
                }
                while (!hour.has(t.getHour())) {
                    if (!added) {
                        added = true;
                        t = t.truncatedTo(ChronoUnit.HOURS);
                    }
                    t = t.plusHours(1);
                    if (t.getHour() == 0) {
                        continue wrap;
                    }
                }
                while (!minute.has(t.getMinute())) {
                    if (!added) {
                        added = true;
                        t = t.truncatedTo(ChronoUnit.MINUTES);
                    }
                    t = t.plusMinutes(1);
                    if (t.getMinute() == 0) {
                        continue wrap;
                    }
                }
                while (t.getSecond() != 0) {
                    if (!added) {
                        added = true;
                    }
                    t = t.plusSeconds(1);
                    if (t.getSecond() == 0) {
                        continue wrap;
                    }
                }
                return t.toInstant();
            }
        }

        private boolean dayMatches(ZonedDateTime t) {
            boolean domMatch = dom.has(t.getDayOfMonth());
            boolean dowMatch = dow.has(t.getDayOfWeek().getValue() % 7);
            return dom.star() || dow.star() ? domMatch && dowMatch : domMatch || dowMatch;
        }
    }

    /** For tests and messages: the schedule's next {@code n} activations after {@code t}. */
    static List<Instant> upcoming(CronSchedule schedule, Instant t, int n) {
        java.util.ArrayList<Instant> out = new java.util.ArrayList<>();
        for (Instant at = schedule.next(t); at != null && out.size() < n; at = schedule.next(at)) {
            out.add(at);
        }
        return out;
    }
}

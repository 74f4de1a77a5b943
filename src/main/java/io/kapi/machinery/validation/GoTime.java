package io.kapi.machinery.validation;

import io.kapi.machinery.GoStrings;

/**
 * Go's {@code time.Parse(time.RFC3339, s)} as far as its errors go: {@code parsing time "x" as
 * "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"}. Accepts fractional seconds and {@code Z} or a
 * {@code ±hh:mm} offset. Returns the error or null.
 */
final class GoTime {

    private static final String LAYOUT = "2006-01-02T15:04:05Z07:00";
    // element of the layout, then the literal that follows it
    private static final String[][] ELEMENTS = {
            {"2006", "-"}, {"01", "-"}, {"02", "T"}, {"15", ":"}, {"04", ":"}, {"05", ""}};

    private GoTime() {
    }

    static String check(String value) {
        int pos = 0;
        int[] fields = new int[6];
        for (int i = 0; i < ELEMENTS.length; i++) {
            String element = ELEMENTS[i][0];
            int width = element.length();
            if (!digitsAt(value, pos, width)) {
                return cannotParse(value, value.substring(Math.min(pos, value.length())), element);
            }
            fields[i] = Integer.parseInt(value.substring(pos, pos + width));
            pos += width;
            String literal = ELEMENTS[i][1];
            if (!literal.isEmpty()) {
                if (!value.startsWith(literal, pos)) {
                    return cannotParse(value, value.substring(pos), literal);
                }
                pos += literal.length();
            }
        }
        if (pos < value.length() && value.charAt(pos) == '.') {
            int start = ++pos;
            while (pos < value.length() && Character.isDigit(value.charAt(pos))) {
                pos++;
            }
            if (pos == start) {
                return cannotParse(value, value.substring(start - 1), "Z07:00");
            }
        }
        if (pos < value.length() && value.charAt(pos) == 'Z') {
            pos++;
        } else if (pos + 6 <= value.length() && (value.charAt(pos) == '+' || value.charAt(pos) == '-')
                && digitsAt(value, pos + 1, 2) && value.charAt(pos + 3) == ':' && digitsAt(value, pos + 4, 2)) {
            pos += 6;
        } else {
            return cannotParse(value, value.substring(pos), "Z07:00");
        }
        if (pos < value.length()) {
            return "parsing time %s: extra text: %s".formatted(GoStrings.quote(value), GoStrings.quote(value.substring(pos)));
        }
        String range = fields[1] < 1 || fields[1] > 12 ? "month"
                : fields[2] < 1 || fields[2] > daysIn(fields[1], fields[0]) ? "day"
                : fields[3] > 23 ? "hour"
                : fields[4] > 59 ? "minute"
                : fields[5] > 59 ? "second" : null;
        return range == null ? null : "parsing time %s: %s out of range".formatted(GoStrings.quote(value), range);
    }

    private static int daysIn(int month, int year) {
        return java.time.YearMonth.of(year, month).lengthOfMonth();
    }

    private static boolean digitsAt(String s, int pos, int n) {
        if (pos + n > s.length()) {
            return false;
        }
        for (int i = pos; i < pos + n; i++) {
            if (!Character.isDigit(s.charAt(i)) || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    private static String cannotParse(String value, String rest, String element) {
        return "parsing time %s as \"%s\": cannot parse %s as \"%s\"".formatted(GoStrings.quote(value), LAYOUT,
                GoStrings.quote(rest), element);
    }
}

package io.kapi.machinery.validation;

import java.util.Set;

/**
 * The syntax check of {@code resource.ParseQuantity}: {@code <signedNumber><suffix>} with suffixes
 * {@code Ki Mi Gi Ti Pi Ei}, {@code n u m k M G T P E}, or an exponent {@code e3}/{@code E-2}. Returns Go's
 * error message or null.
 */
public final class Quantities {

    public static final String FORMAT_WRONG =
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
    public static final String NUMERIC = "unable to parse numeric part of quantity";
    public static final String SUFFIX = "unable to parse quantity's suffix";

    private static final Set<String> SUFFIXES = Set.of("", "n", "u", "m", "k", "M", "G", "T", "P", "E",
            "Ki", "Mi", "Gi", "Ti", "Pi", "Ei");
    private static final String SUFFIX_CHARS = "eEinumkKMGTP";

    private Quantities() {
    }

    /** Null when {@code s} is a valid quantity, else the error kube-apiserver reports. */
    public static String check(String s) {
        if (s.isEmpty()) {
            return FORMAT_WRONG;
        }
        if (s.equals("0")) {
            return null;
        }
        int end = s.length();
        int pos = 0;
        if (s.charAt(0) == '-' || s.charAt(0) == '+') {
            pos++;
        }
        int numberStart = pos;
        boolean digits = false;
        while (pos < end && isDigit(s.charAt(pos))) {
            pos++;
            digits = true;
        }
        if (pos < end && s.charAt(pos) == '.') {
            pos++;
            while (pos < end && isDigit(s.charAt(pos))) {
                pos++;
                digits = true;
            }
        }
        if (pos == end) {
            return digits || numberStart == end ? null : NUMERIC;
        }
        int suffixStart = pos;
        while (pos < end && SUFFIX_CHARS.indexOf(s.charAt(pos)) >= 0) {
            pos++;
        }
        if (pos < end && (s.charAt(pos) == '-' || s.charAt(pos) == '+')) {
            pos++;
        }
        while (pos < end && isDigit(s.charAt(pos))) {
            pos++;
        }
        if (pos < end) {
            return FORMAT_WRONG;
        }
        if (!validSuffix(s.substring(suffixStart))) {
            return SUFFIX;
        }
        return digits || numberStart == suffixStart ? null : NUMERIC;
    }

    private static boolean validSuffix(String suffix) {
        if (SUFFIXES.contains(suffix)) {
            return true;
        }
        if (suffix.length() > 1 && (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E')) {
            try {
                Long.parseLong(suffix.substring(1));
                return true;
            } catch (NumberFormatException e) {
                return false;
            }
        }
        return false;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}

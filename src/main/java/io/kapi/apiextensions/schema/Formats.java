package io.kapi.apiextensions.schema;

import io.kapi.machinery.GoDuration;
import io.kapi.machinery.validation.Identifiers;
import io.kapi.machinery.quantity.Quantity;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The string formats kube-apiserver 1.34 validates in CRD schemas (apiextensions' supported formats:
 * {@code uri}, {@code email}, {@code ipv4}, {@code date-time}, {@code quantity}, {@code k8s-short-name},
 * ...), checked as go-openapi's {@code strfmt} does; format names are compared without dashes, and an
 * unknown format is not checked at all.
 */
final class Formats {

    private static final Pattern HEX24 = Pattern.compile("[0-9a-fA-F]{24}");
    private static final Pattern UUID = Pattern.compile("(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$");
    private static final Pattern UUID3 = Pattern.compile("(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$");
    private static final Pattern UUID4 = Pattern.compile("(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$");
    private static final Pattern UUID5 = Pattern.compile("(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$");
    private static final Pattern EMAIL = Pattern.compile("^[^@\\s<>]+@[^@\\s<>]+$");
    private static final Pattern HOSTNAME = Pattern.compile(
            "^([a-zA-Z0-9\\p{S}\\p{L}]((-?[a-zA-Z0-9\\p{S}\\p{L}]{0,62})?)|([a-zA-Z0-9\\p{S}\\p{L}](([a-zA-Z0-9-\\p{S}\\p{L}]{0,61}[a-zA-Z0-9\\p{S}\\p{L}])?)(\\.)){1,}([a-zA-Z\\p{L}]){2,63})$");
    private static final Pattern MAC = Pattern.compile(
            "^([0-9a-fA-F]{2}([:-])){5}[0-9a-fA-F]{2}$|^([0-9a-fA-F]{2}([:-])){7}[0-9a-fA-F]{2}$"
                    + "|^([0-9a-fA-F]{2}([:-])){19}[0-9a-fA-F]{2}$|^([0-9a-fA-F]{4}\\.){2}[0-9a-fA-F]{4}$"
                    + "|^([0-9a-fA-F]{4}\\.){3}[0-9a-fA-F]{4}$|^([0-9a-fA-F]{4}\\.){9}[0-9a-fA-F]{4}$");
    private static final Pattern ISBN10 = Pattern.compile("^(?:[0-9]{9}X|[0-9]{10})$");
    private static final Pattern ISBN13 = Pattern.compile("^(?:[0-9]{13})$");
    private static final Pattern CREDIT_CARD = Pattern.compile("^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}"
            + "|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\\d{3})\\d{11})$");
    private static final Pattern SSN = Pattern.compile("^\\d{3}[- ]?\\d{2}[- ]?\\d{4}$");
    private static final Pattern HEX_COLOR = Pattern.compile("^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$");
    private static final Pattern RGB_COLOR = Pattern.compile(
            "^rgb\\(\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*,\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*,"
                    + "\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*\\)$");
    private static final Pattern SCALA_DURATION = Pattern.compile(
            "^[0-9]+\\s*(ns|nanos?|nanoseconds?|us|micros?|microseconds?|ms|millis?|milliseconds?|s|secs?|seconds?"
                    + "|m|mins?|minutes?|h|hours?|d|days?|w|wks?|weeks?)$");

    private static final Map<String, Predicate<String>> CHECKS = Map.ofEntries(
            Map.entry("bsonobjectid", s -> HEX24.matcher(s).matches()),
            Map.entry("uri", Formats::uri),
            Map.entry("email", s -> EMAIL.matcher(s).matches()),
            Map.entry("hostname", s -> s.length() <= 255 && HOSTNAME.matcher(s).matches()),
            Map.entry("ipv4", s -> ip(s) && !s.contains(":")),
            Map.entry("ipv6", s -> s.contains(":") && ip(s)),
            Map.entry("cidr", Formats::cidr),
            Map.entry("mac", s -> MAC.matcher(s).matches()),
            Map.entry("uuid", s -> UUID.matcher(s).matches()),
            Map.entry("uuid3", s -> UUID3.matcher(s).matches()),
            Map.entry("uuid4", s -> UUID4.matcher(s).matches()),
            Map.entry("uuid5", s -> UUID5.matcher(s).matches()),
            Map.entry("isbn", s -> isbn10(s) || isbn13(s)),
            Map.entry("isbn10", Formats::isbn10),
            Map.entry("isbn13", Formats::isbn13),
            Map.entry("creditcard", s -> CREDIT_CARD.matcher(s.replaceAll("[^0-9]", "")).matches()),
            Map.entry("ssn", s -> SSN.matcher(s).matches()),
            Map.entry("hexcolor", s -> HEX_COLOR.matcher(s).matches()),
            Map.entry("rgbcolor", s -> RGB_COLOR.matcher(s).matches()),
            Map.entry("byte", Formats::base64),
            Map.entry("password", s -> true),
            Map.entry("date", Formats::date),
            Map.entry("duration", Formats::duration),
            Map.entry("datetime", Formats::dateTime),
            Map.entry("quantity", s -> Quantity.check(s) == null),
            Map.entry("k8sshortname", s -> Identifiers.dns1123Label(s).isEmpty()),
            Map.entry("k8slongname", s -> s.length() <= 253 && s.matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")));

    private Formats() {
    }

    /** Whether {@code format} is one kube validates (for strings; integers and numbers have none). */
    static boolean known(String format) {
        return CHECKS.containsKey(normalize(format));
    }

    /** Whether {@code value} has {@code format}; true for formats kube does not check. */
    static boolean valid(String format, String value) {
        Predicate<String> check = CHECKS.get(normalize(format));
        return check == null || check.test(value);
    }

    private static String normalize(String format) {
        return format.replace("-", "").toLowerCase(Locale.ROOT);
    }

    private static boolean uri(String s) {
        try {
            URI u = new URI(s);
            return u.isAbsolute() || s.startsWith("/");
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private static boolean ip(String s) {
        if (s.isEmpty() || !s.matches("[0-9a-fA-F:.]+")) {
            return false;
        }
        if (!s.contains(":") && !s.matches("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}")) {
            return false;
        }
        try {
            InetAddress.ofLiteral(s);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean cidr(String s) {
        int slash = s.indexOf('/');
        if (slash < 0 || !ip(s.substring(0, slash)) || !s.substring(slash + 1).matches("\\d{1,3}")) {
            return false;
        }
        int bits = Integer.parseInt(s.substring(slash + 1));
        return bits <= (s.contains(":") ? 128 : 32);
    }

    private static boolean isbn10(String s) {
        String v = s.replaceAll("[\\s-]", "");
        if (!ISBN10.matcher(v).matches()) {
            return false;
        }
        int sum = 0;
        for (int i = 0; i < 10; i++) {
            int d = v.charAt(i) == 'X' ? 10 : v.charAt(i) - '0';
            sum += (10 - i) * d;
        }
        return sum % 11 == 0;
    }

    private static boolean isbn13(String s) {
        String v = s.replaceAll("[\\s-]", "");
        if (!ISBN13.matcher(v).matches()) {
            return false;
        }
        int sum = 0;
        for (int i = 0; i < 12; i++) {
            sum += (v.charAt(i) - '0') * (i % 2 == 0 ? 1 : 3);
        }
        return (10 - sum % 10) % 10 == v.charAt(12) - '0';
    }

    private static boolean base64(String s) {
        try {
            Base64.getDecoder().decode(s);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean date(String s) {
        try {
            LocalDate.parse(s);
            return s.length() == 10;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private static boolean duration(String s) {
        if (SCALA_DURATION.matcher(s).matches()) {
            return true;
        }
        try {
            GoDuration.parse(s);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static boolean dateTime(String s) {
        try {
            OffsetDateTime.parse(s.replace(' ', 'T'));
            return true;
        } catch (DateTimeParseException e) {
            return s.matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?") && date(s.substring(0, 10));
        }
    }
}

package io.kapi.machinery.quantity;

import io.kapi.machinery.quantity.Quantity.Format;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * The scanner of {@code parseQuantityString} and the suffixes of {@code quantitySuffixer}, without a
 * regular expression or a number built: {@link Quantity#check} costs one pass over the text.
 *
 * <p>Kapi refuses a number made of a lone point ({@code .}, {@code -.}, {@code .5k} is fine) with
 * {@link Quantity#NUMERIC}, where Go reads it as 0.
 */
final class QuantitySyntax {

    private static final String SUFFIX_CHARS = "eEinumkKMGTP";
    private static final int MAX_LONG_DIGITS = 18;

    /** What a scan found: its error, or the parts of a quantity. */
    sealed interface Scanned permits Error, Parts {
    }

    record Error(String message) implements Scanned {
    }

    /**
     * The parts of a quantity's text.
     *
     * @param digits the digits of the number, leading zeros of the integer part dropped
     * @param fractionDigits how many of {@code digits} stand after the point
     * @param exponent the power of ten of a decimal suffix or exponent, or of 1024 for a binary one
     * @param canonicalAsWritten whether the text is already in canonical form (kept, as Go keeps it)
     */
    record Parts(boolean negative, String digits, int fractionDigits, Format format, int exponent,
                 boolean canonicalAsWritten) implements Scanned {

        boolean zero() {
            for (int i = 0; i < digits.length(); i++) {
                if (digits.charAt(i) != '0') {
                    return false;
                }
            }
            return true;
        }

        /** The exact value. @throws ArithmeticException when the exponent leaves BigDecimal's range */
        BigDecimal value() {
            BigDecimal v;
            if (digits.length() <= MAX_LONG_DIGITS) {
                long n = Long.parseLong(digits);
                if (format == Format.BINARY_SI && fractionDigits == 0 && Long.numberOfLeadingZeros(n) > 10 * exponent) {
                    return BigDecimal.valueOf(negative ? -(n << (10 * exponent)) : n << (10 * exponent));
                }
                v = BigDecimal.valueOf(negative ? -n : n, fractionDigits);
            } else {
                BigInteger n = new BigInteger(digits);
                v = new BigDecimal(negative ? n.negate() : n, fractionDigits);
            }
            return format == Format.BINARY_SI
                    ? v.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(10 * exponent)))
                    : v.scaleByPowerOfTen(exponent);
        }
    }

    private QuantitySyntax() {
    }

    static Scanned scan(String s) {
        int end = s.length();
        if (end == 0) {
            return new Error(Quantity.FORMAT_WRONG);
        }
        int pos = 0;
        char first = s.charAt(0);
        if (first == '-' || first == '+') {
            pos++;
        }
        int numberStart = pos;
        while (pos < end && isDigit(s.charAt(pos))) {
            pos++;
        }
        int integerEnd = pos;
        int fractionStart = pos;
        if (pos < end && s.charAt(pos) == '.') {
            fractionStart = ++pos;
            while (pos < end && isDigit(s.charAt(pos))) {
                pos++;
            }
        }
        int numberEnd = pos;
        boolean digits = integerEnd > numberStart || numberEnd > fractionStart;
        if (pos < end) {
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
                return new Error(Quantity.FORMAT_WRONG);
            }
        }
        String suffix = s.substring(numberEnd);
        Format format = format(suffix);
        int exponent = format == null ? 0 : exponent(suffix, format);
        if (format == null || exponent == Integer.MIN_VALUE) {
            return new Error(Quantity.SUFFIX);
        }
        if (!digits && numberStart != numberEnd) {
            return new Error(Quantity.NUMERIC);
        }
        return parts(s, first, numberStart, integerEnd, fractionStart, numberEnd, format, exponent);
    }

    private static Parts parts(String s, char first, int numberStart, int integerEnd, int fractionStart,
                               int numberEnd, Format format, int exponent) {
        int integerStart = numberStart;
        while (integerStart < integerEnd && s.charAt(integerStart) == '0') {
            integerStart++;
        }
        String integer = s.substring(integerStart, integerEnd);
        String fraction = fractionStart < numberEnd ? s.substring(fractionStart, numberEnd) : "";
        boolean plain = first != '+' && integerStart == numberStart && !integer.isEmpty()
                && fractionStart == integerEnd && format != Format.DECIMAL_EXPONENT;
        boolean canonical = plain && (format == Format.DECIMAL_SI ? !integer.endsWith("000")
                : integer.length() <= MAX_LONG_DIGITS && binaryCanonical(Long.parseLong(integer), exponent));
        return new Parts(first == '-', integer + fraction, fraction.length(), format, exponent, canonical);
    }

    /** Whether {@code n} times 1024^exponent prints as written: no larger suffix fits, and no cap applies. */
    private static boolean binaryCanonical(long n, int exponent) {
        return n % 1024 != 0 && Long.numberOfLeadingZeros(n) > 10 * exponent;
    }

    /** The format a suffix writes, or null when it is none. */
    private static Format format(String suffix) {
        return switch (suffix) {
            case "", "n", "u", "m", "k", "M", "G", "T", "P", "E" -> Format.DECIMAL_SI;
            case "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" -> Format.BINARY_SI;
            default -> suffix.length() > 1 && (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E')
                    ? Format.DECIMAL_EXPONENT : null;
        };
    }

    /**
     * The power of the suffix (of ten, or of 1024 for a binary one); {@code Integer.MIN_VALUE} for an
     * exponent that is no integer or lies beyond ±(2<sup>31</sup>-1), which Go refuses too.
     */
    private static int exponent(String suffix, Format format) {
        return switch (format) {
            case BINARY_SI -> "KMGTPE".indexOf(suffix.charAt(0)) + 1;
            case DECIMAL_SI -> switch (suffix) {
                case "n" -> -9;
                case "u" -> -6;
                case "m" -> -3;
                case "" -> 0;
                default -> 3 * ("kMGTPE".indexOf(suffix.charAt(0)) + 1);
            };
            case DECIMAL_EXPONENT -> {
                try {
                    long e = Long.parseLong(suffix, 1, suffix.length(), 10);
                    yield e > Integer.MAX_VALUE || e < -Integer.MAX_VALUE ? Integer.MIN_VALUE : (int) e;
                } catch (NumberFormatException ex) {
                    yield Integer.MIN_VALUE;
                }
            }
        };
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}

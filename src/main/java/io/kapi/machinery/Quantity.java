package io.kapi.machinery;

import io.kapi.machinery.validation.Quantities;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A resource quantity as a value (kube's {@code resource.Quantity}): an exact decimal, rounded up to
 * nano units as kube rounds, with the format it was written in (binary suffix, decimal suffix or
 * exponent), which {@link #toString()} keeps in canonical form ({@code 1.5Gi} is {@code 1536Mi},
 * {@code 0.5} is {@code 500m}). Sums keep the format of the left side, as Go's {@code Add}.
 *
 * @param value the exact amount
 * @param format how it is written back
 */
public record Quantity(BigDecimal value, Format format) implements Comparable<Quantity> {

    /** How a quantity is written. */
    public enum Format { DECIMAL_SI, BINARY_SI, DECIMAL_EXPONENT }

    public static final Quantity ZERO = new Quantity(BigDecimal.ZERO, Format.DECIMAL_SI);

    private static final Pattern SYNTAX = Pattern.compile("([+-]?)([0-9]*)(?:\\.([0-9]*))?([eEinumkKMGTP]*[-+]?[0-9]*)");
    private static final Map<String, Integer> DECIMAL = Map.of("n", -9, "u", -6, "m", -3, "", 0,
            "k", 3, "M", 6, "G", 9, "T", 12, "P", 15, "E", 18);
    private static final Map<Integer, String> DECIMAL_SUFFIX = Map.of(-9, "n", -6, "u", -3, "m", 0, "",
            3, "k", 6, "M", 9, "G", 12, "T", 15, "P", 18, "E");
    private static final Map<String, Integer> BINARY = Map.of("Ki", 1, "Mi", 2, "Gi", 3, "Ti", 4, "Pi", 5, "Ei", 6);
    private static final String[] BINARY_SUFFIX = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    private static final BigInteger KI = BigInteger.valueOf(1024);

    public Quantity {
        value = value.setScale(9, RoundingMode.UP).stripTrailingZeros();
    }

    /** A whole number written without suffix. */
    public static Quantity of(long value) {
        return new Quantity(BigDecimal.valueOf(value), Format.DECIMAL_SI);
    }

    /**
     * Parses kube's quantity syntax.
     *
     * @throws IllegalArgumentException with Go's message ({@link Quantities}) when {@code text} is none
     */
    public static Quantity parse(String text) {
        String problem = Quantities.check(text);
        Matcher m = SYNTAX.matcher(text);
        if (problem != null || !m.matches()) {
            throw new IllegalArgumentException(problem == null ? Quantities.FORMAT_WRONG : problem);
        }
        String whole = m.group(2).isEmpty() ? "0" : m.group(2);
        String fraction = m.group(3) == null ? "" : m.group(3);
        BigDecimal value = new BigDecimal(fraction.isEmpty() ? whole : whole + "." + fraction);
        if (m.group(1).equals("-")) {
            value = value.negate();
        }
        String suffix = m.group(4);
        if (BINARY.containsKey(suffix)) {
            return new Quantity(value.multiply(new BigDecimal(KI.pow(BINARY.get(suffix)))), Format.BINARY_SI);
        }
        if (DECIMAL.containsKey(suffix)) {
            return new Quantity(value.scaleByPowerOfTen(DECIMAL.get(suffix)), Format.DECIMAL_SI);
        }
        return new Quantity(value.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1))), Format.DECIMAL_EXPONENT);
    }

    /** Whether {@code text} parses. */
    public static boolean isQuantity(String text) {
        return Quantities.check(text) == null;
    }

    public Quantity add(Quantity other) {
        return new Quantity(value.add(other.value), format);
    }

    public Quantity subtract(Quantity other) {
        return new Quantity(value.subtract(other.value), format);
    }

    public int signum() {
        return value.signum();
    }

    /** Whether the value is a whole number that fits a long. */
    public boolean isInteger() {
        if (value.signum() != 0 && value.stripTrailingZeros().scale() > 0) {
            return false;
        }
        try {
            value.longValueExact();
            return true;
        } catch (ArithmeticException e) {
            return false;
        }
    }

    /** The value in milli units, rounded up, as Go's {@code MilliValue}. */
    public long milliValue() {
        return value.movePointRight(3).setScale(0, RoundingMode.UP).longValue();
    }

    @Override
    public int compareTo(Quantity other) {
        return value.compareTo(other.value);
    }

    /** Equal amounts are equal whatever their format (Go's {@code Equal}). */
    @Override
    public boolean equals(Object o) {
        return o instanceof Quantity q && value.compareTo(q.value) == 0;
    }

    @Override
    public int hashCode() {
        return value.stripTrailingZeros().hashCode();
    }

    /** The canonical text kube writes. */
    @Override
    public String toString() {
        if (value.signum() == 0) {
            return "0";
        }
        String sign = value.signum() < 0 ? "-" : "";
        BigDecimal abs = value.abs();
        if (format == Format.BINARY_SI && abs.compareTo(BigDecimal.valueOf(1024)) >= 0
                && abs.stripTrailingZeros().scale() <= 0) {
            BigInteger n = abs.toBigIntegerExact();
            int exponent = 0;
            while (exponent < BINARY_SUFFIX.length - 1 && n.mod(KI).signum() == 0) {
                n = n.divide(KI);
                exponent++;
            }
            return sign + n + BINARY_SUFFIX[exponent];
        }
        int exponent = -9;
        BigDecimal scaled = abs.movePointRight(9);
        while (exponent < 18 && scaled.remainder(BigDecimal.valueOf(1000)).signum() == 0) {
            scaled = scaled.movePointLeft(3);
            exponent += 3;
        }
        String digits = scaled.setScale(0, RoundingMode.UP).toPlainString();
        if (format == Format.DECIMAL_EXPONENT) {
            return sign + digits + (exponent == 0 ? "" : "e" + exponent);
        }
        return sign + digits + DECIMAL_SUFFIX.get(exponent);
    }
}

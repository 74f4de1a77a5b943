package io.kapi.machinery.quantity;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * A {@code resource.Quantity}: an exact decimal number with the format its suffix chose, parsed and
 * printed as kube-apiserver does ({@code ParseQuantity}, {@code RoundUp}, {@code Cmp}, {@code Add} and
 * the canonical form of {@code String()}). Immutable.
 *
 * <p>Syntax: {@code <sign><digits>[.<digits>]<suffix>} with the binary suffixes {@code Ki Mi Gi Ti Pi Ei},
 * the decimal ones {@code n u m "" k M G T P E}, or a decimal exponent {@code e3}/{@code E-2}. Parsing
 * rounds up (away from zero) to nano units, caps binary values at 2<sup>63</sup>-1, and treats a binary
 * value below 1 as decimal. The canonical form has no fraction and the largest suffix that keeps the
 * value exact: {@code 1.5} is {@code 1500m}, {@code 1.5Gi} is {@code 1536Mi}, {@code 0.5Ki} is
 * {@code 512}, {@code 1000M} is {@code 1G}, {@code 12e2} is {@code 1200}.
 */
public final class Quantity implements Comparable<Quantity> {

    /** Go's {@code ErrFormatWrong}. */
    public static final String FORMAT_WRONG =
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
    /** Go's {@code ErrNumeric}. */
    public static final String NUMERIC = "unable to parse numeric part of quantity";
    /** Go's {@code ErrSuffix}. */
    public static final String SUFFIX = "unable to parse quantity's suffix";

    /** Which family of suffixes a quantity is written with. */
    public enum Format { DECIMAL_EXPONENT, BINARY_SI, DECIMAL_SI }

    /** The scale of milli units, for {@link #roundUp}: kube's {@code resource.Milli}. */
    public static final int MILLI = -3;

    private static final BigDecimal MAX_BINARY = new BigDecimal(Long.MAX_VALUE);
    private static final BigDecimal KI = BigDecimal.valueOf(1024);
    private static final BigInteger BIG_KI = BigInteger.valueOf(1024);
    private static final String[] BINARY_SUFFIXES = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    private static final String[] DECIMAL_SUFFIXES = {"n", "u", "m", "", "k", "M", "G", "T", "P", "E"};
    private static final int NANO = -9;
    private static final int EXA = 18;

    public static final Quantity ZERO = new Quantity(BigDecimal.ZERO, Format.DECIMAL_SI, "0");

    private final BigDecimal value;
    private final Format format;
    /** The canonical text, computed once (a benign race, as {@code String.hash}). */
    private String text;

    private Quantity(BigDecimal value, Format format, String text) {
        this.value = value;
        this.format = format;
        this.text = text;
    }

    /**
     * Parses a quantity as {@code ParseQuantity}.
     *
     * @throws IllegalArgumentException with Go's message ({@link #FORMAT_WRONG}, {@link #NUMERIC} or
     *         {@link #SUFFIX}) when {@code s} is not a quantity
     */
    public static Quantity parse(String s) {
        return switch (QuantitySyntax.scan(s)) {
            case QuantitySyntax.Error e -> throw new IllegalArgumentException(e.message());
            case QuantitySyntax.Parts p -> of(p, s);
        };
    }

    /** The quantity {@code s} denotes, or null when it is not one (or is null). */
    public static Quantity parseOrNull(String s) {
        if (s == null || !(QuantitySyntax.scan(s) instanceof QuantitySyntax.Parts p)) {
            return null;
        }
        try {
            return of(p, s);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Null when {@code s} is a quantity, else Go's message: the check kube's decoding makes. */
    public static String check(String s) {
        return QuantitySyntax.scan(s) instanceof QuantitySyntax.Error e ? e.message() : null;
    }

    /**
     * The canonical text of {@code text} rounded up to {@code fractionDigits} digits after the point (3:
     * milli units, as {@code SetDefaults_ResourceList} rounds), or null when {@code text} is not a
     * quantity (validation reports it).
     */
    public static String canonical(String text, int fractionDigits) {
        Quantity q = parseOrNull(text);
        return q == null ? null : q.roundUp(-fractionDigits).toString();
    }

    /** A quantity of exactly {@code value} written with {@code format} (no rounding, no cap). */
    public static Quantity of(BigDecimal value, Format format) {
        return new Quantity(value, format, null);
    }

    private static Quantity of(QuantitySyntax.Parts p, String input) {
        if (p.zero()) {
            return p.format() == Format.DECIMAL_SI ? ZERO : new Quantity(BigDecimal.ZERO, p.format(), null);
        }
        BigDecimal v;
        try {
            v = p.value();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(SUFFIX);
        }
        Format format = p.format();
        if (v.scale() > -NANO) {
            v = roundAwayFromZero(v, -NANO);
        }
        if (format == Format.BINARY_SI) {
            if (v.abs().compareTo(MAX_BINARY) > 0) {
                v = v.signum() < 0 ? MAX_BINARY.negate() : MAX_BINARY;
            }
            if (v.abs().compareTo(BigDecimal.ONE) < 0) {
                format = Format.DECIMAL_SI;
            }
        }
        return new Quantity(v, format, p.canonicalAsWritten() ? input : null);
    }

    /** The exact value. */
    public BigDecimal value() {
        return value;
    }

    public Format format() {
        return format;
    }

    public int signum() {
        return value.signum();
    }

    /**
     * {@code RoundUp(scale)}: the value rounded away from zero to multiples of 10<sup>scale</sup>
     * ({@link #MILLI} for milli units); this quantity itself when it needs no rounding.
     */
    public Quantity roundUp(int scale) {
        if (value.scale() <= -scale) {
            return this;
        }
        return new Quantity(roundAwayFromZero(value, -scale), format, null);
    }

    /** {@code Add}: the sum, in this quantity's format unless this is zero (then in {@code other}'s). */
    public Quantity add(Quantity other) {
        return new Quantity(value.add(other.value), signum() == 0 ? other.format : format, null);
    }

    /** {@code Sub}: the difference, in this quantity's format unless this is zero (then in {@code other}'s). */
    public Quantity subtract(Quantity other) {
        return new Quantity(value.subtract(other.value), signum() == 0 ? other.format : format, null);
    }

    /** A whole number of {@code value} in decimal SI, as {@code NewQuantity(value, DecimalSI)}. */
    public static Quantity of(long value) {
        return new Quantity(BigDecimal.valueOf(value), Format.DECIMAL_SI, null);
    }

    /** Whether {@code AsInt64} succeeds: the value is whole and fits in 64 bits. */
    public boolean isInteger() {
        if (value.signum() == 0) {
            return true;
        }
        if (value.stripTrailingZeros().scale() > 0) {
            return false;
        }
        return value.toBigInteger().bitLength() < 64;
    }

    /** {@code Cmp}: by value, whatever the formats. */
    @Override
    public int compareTo(Quantity other) {
        return value.compareTo(other.value);
    }

    /** Equal values (whatever the formats), as Go's {@code Equal}. */
    @Override
    public boolean equals(Object o) {
        return o instanceof Quantity q && value.compareTo(q.value) == 0;
    }

    @Override
    public int hashCode() {
        return value.signum() == 0 ? 0 : value.stripTrailingZeros().hashCode();
    }

    /** The canonical form, as kube-apiserver writes the quantity back. */
    @Override
    public String toString() {
        String s = text;
        if (s == null) {
            s = canonical();
            text = s;
        }
        return s;
    }

    private String canonical() {
        if (value.signum() == 0) {
            return "0";
        }
        Format f = format;
        if (f == Format.BINARY_SI) {
            BigDecimal magnitude = value.abs();
            if (magnitude.compareTo(KI) < 0 || magnitude.stripTrailingZeros().scale() > 0) {
                f = Format.DECIMAL_SI;
            } else {
                return base1024(magnitude.toBigIntegerExact());
            }
        }
        return base1000(f);
    }

    private String base1024(BigInteger magnitude) {
        int exponent = 0;
        while (exponent < BINARY_SUFFIXES.length - 1 && magnitude.mod(BIG_KI).signum() == 0) {
            magnitude = magnitude.divide(BIG_KI);
            exponent++;
        }
        return (value.signum() < 0 ? "-" : "") + magnitude + BINARY_SUFFIXES[exponent];
    }

    private String base1000(Format f) {
        BigDecimal stripped = value.stripTrailingZeros();
        BigInteger mantissa = stripped.unscaledValue();
        long exponent = -(long) stripped.scale();
        int remainder = (int) Math.floorMod(exponent, 3L);
        if (remainder > 0) {
            mantissa = mantissa.multiply(BigInteger.TEN.pow(remainder));
            exponent -= remainder;
        }
        if (f == Format.DECIMAL_EXPONENT) {
            return exponent == 0 ? mantissa.toString() : mantissa + "e" + exponent;
        }
        if (exponent > EXA) {
            mantissa = mantissa.multiply(BigInteger.TEN.pow((int) (exponent - EXA)));
            exponent = EXA;
        } else if (exponent < NANO) {
            return mantissa + "e" + exponent;
        }
        return mantissa + DECIMAL_SUFFIXES[(int) (exponent - NANO) / 3];
    }

    /** Rounds to {@code scale} digits after the point, away from zero, without expanding huge scales. */
    private static BigDecimal roundAwayFromZero(BigDecimal v, int scale) {
        if (v.signum() == 0) {
            return BigDecimal.ZERO;
        }
        if ((long) v.precision() - v.scale() <= -scale) {
            // |v| < 10^-scale: the smallest unit, as Go's rounding up gives it
            return BigDecimal.valueOf(v.signum(), scale);
        }
        return v.setScale(scale, RoundingMode.UP);
    }
}

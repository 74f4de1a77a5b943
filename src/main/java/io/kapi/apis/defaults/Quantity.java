package io.kapi.apis.defaults;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A resource quantity in the canonical form kube-apiserver writes back ({@code resource.Quantity}'s
 * parse, round and {@code CanonicalizeBytes}): values are rounded up to nano units (to milli units in
 * resource lists, as {@code SetDefaults_ResourceList} does); binary-suffixed values keep the largest
 * exact power-of-1024 suffix when at least 1Ki and whole ({@code 1.5Gi} → {@code 1536Mi}); others use
 * the largest exact power-of-1000 suffix ({@code 0.5} → {@code 500m}, {@code 1000M} → {@code 1G}), or an
 * {@code e} exponent that is a multiple of 3 when written with one.
 */
final class Quantity {

    private static final Pattern SYNTAX = Pattern.compile("([+-]?)([0-9]*)(?:\\.([0-9]*))?([eEinumkKMGTP]*[-+]?[0-9]*)");

    private static final Map<String, Integer> DECIMAL = Map.of("n", -9, "u", -6, "m", -3, "", 0,
            "k", 3, "M", 6, "G", 9, "T", 12, "P", 15, "E", 18);
    private static final Map<String, Integer> BINARY = Map.of("Ki", 1, "Mi", 2, "Gi", 3, "Ti", 4, "Pi", 5, "Ei", 6);
    private static final String[] BINARY_SUFFIX = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    private static final BigInteger KI = BigInteger.valueOf(1024);

    private enum Format { DECIMAL_SI, BINARY_SI, DECIMAL_EXPONENT }

    private Quantity() {
    }

    /**
     * The canonical text of {@code text} rounded up to {@code 10^-scale} units ({@code scale} 9 for
     * nano, 3 for milli), or null when {@code text} is not a quantity (validation reports it).
     */
    static String canonical(String text, int scale) {
        Matcher m = SYNTAX.matcher(text);
        if (text.isEmpty() || !m.matches() || (m.group(2).isEmpty() && (m.group(3) == null || m.group(3).isEmpty()))) {
            return null;
        }
        String suffix = m.group(4);
        String whole = m.group(2).isEmpty() ? "0" : m.group(2);
        String fraction = m.group(3) == null ? "" : m.group(3);
        BigDecimal value = new BigDecimal(fraction.isEmpty() ? whole : whole + "." + fraction);
        Format format;
        if (DECIMAL.containsKey(suffix)) {
            format = Format.DECIMAL_SI;
            value = value.scaleByPowerOfTen(DECIMAL.get(suffix));
        } else if (BINARY.containsKey(suffix)) {
            format = Format.BINARY_SI;
            value = value.multiply(new BigDecimal(KI.pow(BINARY.get(suffix))));
        } else if (suffix.matches("[eE][-+]?[0-9]+")) {
            format = Format.DECIMAL_EXPONENT;
            value = value.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1)));
        } else {
            return null;
        }
        value = value.setScale(Math.min(scale, 9), RoundingMode.UP);
        if (value.signum() == 0) {
            return "0";
        }
        String sign = m.group(1).equals("-") ? "-" : "";
        if (format == Format.BINARY_SI) {
            boolean integral = value.stripTrailingZeros().scale() <= 0;
            if (value.compareTo(BigDecimal.valueOf(1024)) < 0 || !integral) {
                format = Format.DECIMAL_SI;
            } else {
                return sign + base1024(value.toBigIntegerExact());
            }
        }
        return sign + base1000(value, format);
    }

    private static String base1024(BigInteger value) {
        int exponent = 0;
        while (exponent < BINARY_SUFFIX.length - 1 && value.mod(KI).signum() == 0) {
            value = value.divide(KI);
            exponent++;
        }
        return value + BINARY_SUFFIX[exponent];
    }

    private static String base1000(BigDecimal value, Format format) {
        BigDecimal stripped = value.stripTrailingZeros();
        BigInteger mantissa = stripped.unscaledValue();
        int exponent = -stripped.scale();
        int remainder = Math.floorMod(exponent, 3);
        mantissa = mantissa.multiply(BigInteger.TEN.pow(remainder));
        exponent -= remainder;
        if (format == Format.DECIMAL_EXPONENT) {
            return mantissa + (exponent == 0 ? "" : "e" + exponent);
        }
        while (exponent > 18) {
            mantissa = mantissa.multiply(BigInteger.valueOf(1000));
            exponent -= 3;
        }
        for (Map.Entry<String, Integer> entry : DECIMAL.entrySet()) {
            if (entry.getValue() == exponent) {
                return mantissa + entry.getKey();
            }
        }
        return mantissa.toString();
    }
}

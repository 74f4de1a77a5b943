package io.kapi.apis.validation;

import io.kapi.machinery.validation.Quantities;
import java.math.BigDecimal;

/** The numeric value of a {@code resource.Quantity} string, for comparisons; null when it does not parse. */
final class Quantity {

    private Quantity() {
    }

    static BigDecimal parse(String s) {
        if (s == null || Quantities.check(s) != null) {
            return null;
        }
        int end = s.length();
        int i = 0;
        while (i < end && "+-.0123456789".indexOf(s.charAt(i)) >= 0) {
            i++;
        }
        String number = s.substring(0, i);
        String suffix = s.substring(i);
        BigDecimal n;
        try {
            n = new BigDecimal(number.isEmpty() || number.equals("+") || number.equals("-") ? "0" : number);
        } catch (NumberFormatException ex) {
            return null;
        }
        return switch (suffix) {
            case "" -> n;
            case "n" -> n.scaleByPowerOfTen(-9);
            case "u" -> n.scaleByPowerOfTen(-6);
            case "m" -> n.scaleByPowerOfTen(-3);
            case "k" -> n.scaleByPowerOfTen(3);
            case "M" -> n.scaleByPowerOfTen(6);
            case "G" -> n.scaleByPowerOfTen(9);
            case "T" -> n.scaleByPowerOfTen(12);
            case "P" -> n.scaleByPowerOfTen(15);
            case "E" -> n.scaleByPowerOfTen(18);
            case "Ki" -> n.multiply(BigDecimal.valueOf(1024L));
            case "Mi" -> n.multiply(BigDecimal.valueOf(1024L * 1024));
            case "Gi" -> n.multiply(BigDecimal.valueOf(1024L * 1024 * 1024));
            case "Ti" -> n.multiply(BigDecimal.valueOf(1024L * 1024 * 1024 * 1024));
            case "Pi" -> n.multiply(BigDecimal.valueOf(1024L * 1024 * 1024 * 1024 * 1024));
            case "Ei" -> n.multiply(BigDecimal.valueOf(1024L * 1024 * 1024 * 1024 * 1024 * 1024));
            default -> n.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1)));
        };
    }

    static int compare(String a, String b) {
        BigDecimal x = parse(a);
        BigDecimal y = parse(b);
        return x == null || y == null ? 0 : x.compareTo(y);
    }
}

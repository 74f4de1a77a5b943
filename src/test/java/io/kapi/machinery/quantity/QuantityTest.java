package io.kapi.machinery.quantity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kapi.machinery.quantity.Quantity.Format;
import java.math.BigDecimal;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Cases from kube's {@code quantity_test.go} (TestQuantityParse, TestQuantityString, ParseEmit, RoundUp, Cmp). */
class QuantityTest {

    @ParameterizedTest(name = "{0} is {1} ({2})")
    @DisplayName("ParseQuantity: the value and format kube reads")
    @CsvSource({
        "0, 0, DECIMAL_SI", "0n, 0, DECIMAL_SI", "0m, 0, DECIMAL_SI", "0Ki, 0, BINARY_SI", "0Ti, 0, BINARY_SI",
        "1, 1, DECIMAL_SI", "1Ki, 1024, BINARY_SI", "8Ki, 8192, BINARY_SI", "7Mi, 7340032, BINARY_SI",
        "6Gi, 6442450944, BINARY_SI", "5Ti, 5497558138880, BINARY_SI", "4Pi, 4503599627370496, BINARY_SI",
        "3Ei, 3458764513820540928, BINARY_SI", "100Ti, 109951162777600, BINARY_SI",
        "5n, 5E-9, DECIMAL_SI", "4u, 4E-6, DECIMAL_SI", "3m, 0.003, DECIMAL_SI", "8k, 8000, DECIMAL_SI",
        "50k, 50000, DECIMAL_SI", "7M, 7E6, DECIMAL_SI", "6G, 6E9, DECIMAL_SI", "5T, 5E12, DECIMAL_SI",
        "40T, 4E13, DECIMAL_SI", "300T, 3E14, DECIMAL_SI", "2P, 2E15, DECIMAL_SI", "1E, 1E18, DECIMAL_SI",
        "1E-3, 0.001, DECIMAL_EXPONENT", "1e3, 1000, DECIMAL_EXPONENT", "1E6, 1E6, DECIMAL_EXPONENT",
        "1e9, 1E9, DECIMAL_EXPONENT", "1E18, 1E18, DECIMAL_EXPONENT", "1e14, 1E14, DECIMAL_EXPONENT",
        "100.035k, 100035, DECIMAL_SI", "0.001, 0.001, DECIMAL_SI", "0.0005k, 0.5, DECIMAL_SI",
        "0.00050k, 0.5, DECIMAL_SI", "0.05000, 0.05, DECIMAL_SI", "0.5e0, 0.5, DECIMAL_EXPONENT",
        "0.5e-1, 0.05, DECIMAL_EXPONENT", "0.5e-2, 0.005, DECIMAL_EXPONENT", "10.035M, 10035000, DECIMAL_SI",
        "1.2e3, 1200, DECIMAL_EXPONENT", "1.3E+6, 1300000, DECIMAL_EXPONENT", "1.40e9, 1.4E9, DECIMAL_EXPONENT",
        "1.53E12, 1.53E12, DECIMAL_EXPONENT", "1.6e15, 1.6E15, DECIMAL_EXPONENT", "1.7E18, 1.7E18, DECIMAL_EXPONENT",
        "9.01, 9.01, DECIMAL_SI", "8.1k, 8100, DECIMAL_SI", "7.123456M, 7123456, DECIMAL_SI",
        "6.987654321G, 6987654321, DECIMAL_SI", "5.444T, 5.444E12, DECIMAL_SI", "40.1T, 4.01E13, DECIMAL_SI",
        "300.2T, 3.002E14, DECIMAL_SI", "2.5P, 2.5E15, DECIMAL_SI", "1.01E, 1.01E18, DECIMAL_SI",
        // things that saturate or round
        "3.001n, 4E-9, DECIMAL_SI", "1.1E-9, 2E-9, DECIMAL_EXPONENT", "0.0000000001, 1E-9, DECIMAL_SI",
        "0.0000000005, 1E-9, DECIMAL_SI", "0.00000000050, 1E-9, DECIMAL_SI", "0.5e-9, 1E-9, DECIMAL_EXPONENT",
        "0.9n, 1E-9, DECIMAL_SI", "0.00000012345, 1.24E-7, DECIMAL_SI", "0.00000012354, 1.24E-7, DECIMAL_SI",
        "9Ei, 9223372036854775807, BINARY_SI", "9223372036854775807Ki, 9223372036854775807, BINARY_SI",
        "12E, 1.2E19, DECIMAL_SI",
        // fractional binary
        "100.035Ki, 102435.84, BINARY_SI", "0.5Mi, 524288, BINARY_SI", "0.05Gi, 53687091.2, BINARY_SI",
        "0.025Ti, 27487790694.4, BINARY_SI",
        // written by trolls
        "0.000000000001Ki, 2E-9, DECIMAL_SI", ".001, 0.001, DECIMAL_SI", ".0001k, 0.1, DECIMAL_SI",
        "1., 1, DECIMAL_SI", "1.G, 1E9, DECIMAL_SI"})
    void parse(String text, BigDecimal value, Format format) {
        for (String sign : new String[] {"", "+", "-"}) {
            Quantity q = Quantity.parse(sign + text);
            BigDecimal expected = sign.equals("-") ? value.negate() : value;
            assertEquals(0, expected.compareTo(q.value()), sign + text + " is " + q.value());
            assertEquals(format, q.format(), sign + text);
        }
    }

    @ParameterizedTest(name = "\"{0}\": {1}")
    @DisplayName("what is not a quantity fails with Go's message")
    @CsvSource(delimiter = '|', value = {
        "''|FORMAT_WRONG", "1.1.M|FORMAT_WRONG", "1+1.0M|FORMAT_WRONG", "0.1mi|SUFFIX", "0.1am|FORMAT_WRONG",
        "aoeu|FORMAT_WRONG", ".5i|SUFFIX", "1i|SUFFIX", "-3.01i|SUFFIX", "-3.01e-|SUFFIX", "1e4294967297|SUFFIX",
        "' 1'|FORMAT_WRONG", "'1 '|FORMAT_WRONG", "1Qi|FORMAT_WRONG", "1e|SUFFIX", "1ki|SUFFIX", "1.2.3|FORMAT_WRONG",
        ".|NUMERIC", "-.|NUMERIC", ".k|NUMERIC"})
    void invalid(String text, String error) throws ReflectiveOperationException {
        String message = (String) Quantity.class.getField(error).get(null);
        assertEquals(message, Quantity.check(text));
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> Quantity.parse(text)).getMessage());
        assertNull(Quantity.parseOrNull(text));
    }

    @ParameterizedTest(name = "{0} is written {1}")
    @DisplayName("String(): the canonical form (TestQuantityString, TestQuantityParseEmit)")
    @CsvSource({
        "1Gi, 1Gi", "1024Mi, 1Gi", "300Mi, 300Mi", "307200Ki, 300Mi", "6Ki, 6Ki", "1001Gi, 1001Gi",
        "1025024Mi, 1001Gi", "1Ti, 1Ti", "1024Gi, 1Ti", "1000M, 1G", "0.001T, 1G", "1m, 1m", "1000u, 1m",
        "80m, 80m", "1080m, 1080m", "1.08, 1080m", "1080000000n, 1080m", "300M, 300M", "1T, 1T", "1E, 1E",
        "1234567M, 1234567M", "3k, 3k", "1025, 1025", "0, 0", "1e9, 1e9", ".001e12, 1e9", "1e-3, 1e-3",
        "0.001e0, 1e-3", "1e-9, 1e-9", "1000e-12, 1e-9", "80e-3, 80e-3", "300e6, 300e6", "1e12, 1e12",
        "3e3, 3e3", "00, 0", "1n, 1n", "80n, 80n", "1080n, 1080n", "1u, 1u", "1080u, 1080u",
        "1Ki, 1Ki", "1Mi, 1Mi", ".001Ki, 1024m", ".000001Ki, 1024u", ".000000001Ki, 1024n", ".000000000001Ki, 2n",
        "5000m, 5", "0.5Ki, 512", "1.5Gi, 1536Mi", "-1.5Gi, -1536Mi", "-9010m, -9010m", "+1Ki, 1Ki", "01, 1",
        "9Ei, 9223372036854775807", "16Ei, 9223372036854775807", "1000E, 1000E", "+, 0", "k, 0"})
    void canonical(String text, String canonical) {
        Quantity q = Quantity.parse(text);
        assertEquals(canonical, q.toString());
        assertEquals(canonical, Quantity.parse(canonical).toString(), "the canonical form is stable");
        assertEquals(0, q.compareTo(Quantity.parse(canonical)));
    }

    @ParameterizedTest(name = "{0} rounded to 10^{1} is {2}")
    @DisplayName("RoundUp rounds away from zero")
    @CsvSource({"9.01, -3, 9.01", "9.01, -2, 9.01", "9.01, -1, 9.1", "9.01, 0, 10", "9.01, 1, 10", "9.01, 2, 100",
        "-9.01, -3, -9.01", "-9.01, -1, -9.1", "-9.01, 0, -10", "-9.01, 2, -100", "100u, -3, 0.001"})
    void roundUp(String text, int scale, BigDecimal expected) {
        assertEquals(0, expected.compareTo(Quantity.parse(text).roundUp(scale).value()));
    }

    @Test
    @DisplayName("rounding that changes nothing keeps the quantity; milli rounding is what defaulting writes")
    void milli() {
        Quantity q = Quantity.parse("100m");
        assertSame(q, q.roundUp(Quantity.MILLI));
        assertEquals("1m", Quantity.parse("100u").roundUp(Quantity.MILLI).toString());
        assertEquals("1001m", Quantity.canonical("1.0001", 3));
        assertNull(Quantity.canonical("abc", 3));
    }

    @ParameterizedTest(name = "{0} vs {1}: {2}")
    @DisplayName("Cmp compares values whatever the format")
    @CsvSource({"0, 0, 0", "100m, 50m, 1", "50m, 100m, -1", "10000T, 100Gi, 1", "1Ki, 1024, 0", "1k, 1Ki, -1",
        "0.5, 500m, 0", "1e3, 1k, 0", "-1, 0, -1"})
    void compare(String a, String b, int expected) {
        assertEquals(expected, Integer.signum(Quantity.parse(a).compareTo(Quantity.parse(b))));
        assertEquals(expected == 0, Quantity.parse(a).equals(Quantity.parse(b)));
    }

    @Test
    @DisplayName("Add keeps the format of the first operand unless it is zero (TestQuantityAddZeroPreservesSuffix)")
    void add() {
        assertEquals("100m", Quantity.parse("100m").add(Quantity.ZERO).toString());
        assertEquals("100m", Quantity.ZERO.add(Quantity.parse("100m")).toString());
        assertEquals("1Gi", Quantity.ZERO.add(Quantity.parse("1Gi")).toString());
        assertEquals("1536Mi", Quantity.parse("1Gi").add(Quantity.parse("512Mi")).toString());
        assertEquals("1500m", Quantity.parse("1").add(Quantity.parse("500m")).toString());
    }

    @ParameterizedTest
    @DisplayName("huge or tiny exponents neither hang nor overflow")
    @ValueSource(strings = {"1e999999999", "1e-999999999", "1.5e2147483647", "-1e-2147483647", "5e2147483647"})
    void extremes(String text) {
        Quantity q = Quantity.parseOrNull(text);
        if (q != null) {
            assertEquals(q.toString(), Quantity.parse(q.toString()).toString());
            q.roundUp(Quantity.MILLI).toString();
        }
    }
}

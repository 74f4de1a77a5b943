package io.kapi.machinery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Go's quoting: cases of {@code strconv/quote_test.go} and of {@code encoding/json}'s string encoding. */
class GoStringsTest {

    @Test
    @DisplayName("strconv.Quote: escapes, printable runes kept, non-printable as \\x, \\u or \\U")
    void quote() {
        assertEquals("\"\\a\\b\\f\\r\\n\\t\\v\"", GoStrings.quote("\u0007\b\f\r\n\t\u000b"));
        assertEquals("\"\\\\\"", GoStrings.quote("\\"));
        assertEquals("\"\\\"a\\\"\"", GoStrings.quote("\"a\""));
        assertEquals("\"\u263a\"", GoStrings.quote("\u263a"));
        assertEquals("\"\\U0010ffff\"", GoStrings.quote(new String(Character.toChars(0x10ffff))));
        assertEquals("\"\\x04\"", GoStrings.quote("\u0004"));
        assertEquals("\"!\\u00a0!\\u2000!\\u3000!\"", GoStrings.quote("!\u00a0!\u2000!\u3000!"));
        assertEquals("\"\\x7f\"", GoStrings.quote("\u007f"));
        assertEquals("\"a\\x01\"", GoStrings.quote("a\u0001"));
        assertEquals("\"caf\u00e9 \ud83d\ude00\"", GoStrings.quote("caf\u00e9 \ud83d\ude00"));
        assertEquals("\"\ufffd\"", GoStrings.quote("\ud800"));
        assertEquals("\"\"", GoStrings.quote(""));
    }

    @ParameterizedTest(name = "byte {0} is {1}")
    @DisplayName("quoteChar, as encoding/json names a bad byte")
    @CsvSource(quoteCharacter = '`', value = {"120, 'x'", "39, `'\\''`", "34, '\"'", "10, '\\n'", "1, '\\x01'",
        "92, '\\\\'", "233, '\u00e9'", "128, '\\u0080'", "160, '\\u00a0'", "173, '\\u00ad'", "127, '\\x7f'"})
    void quoteChar(int c, String expected) {
        assertEquals(expected, GoStrings.quoteChar(c));
    }

    @Test
    @DisplayName("encoding/json strings: HTML-safe, control characters as \\u00XX")
    void jsonString() {
        StringBuilder b = new StringBuilder();
        GoJson.appendString(b, "<a&b>\"\\\n\r\t\u0001\u2028x\u00e9");
        assertEquals("\"\\u003ca\\u0026b\\u003e\\\"\\\\\\n\\r\\t\\u0001\\u2028x\u00e9\"", b.toString());
    }

    @ParameterizedTest(name = "U+{0}: {1}")
    @DisplayName("unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space")
    @CsvSource({"20, true", "41, true", "7E, true", "7F, false", "1F, false", "A0, false", "AD, false", "E9, true",
        "2028, false", "3000, false", "263A, true", "FEFF, false", "1F600, true"})
    void isPrint(String hex, boolean printable) {
        assertEquals(printable, GoStrings.isPrint(Integer.parseInt(hex, 16)));
    }
}

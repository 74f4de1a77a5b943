package io.kapi.machinery;

/**
 * Go's string quoting, as kube-apiserver's messages print strings: {@code strconv.Quote} (what
 * {@code %q} and {@code field.Error} values use) and Go's {@code unicode.IsPrint}. One place, so that
 * every message quotes alike; {@link GoJson#appendString} is the other Go rendering of a string, JSON's.
 */
public final class GoStrings {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private GoStrings() {
    }

    /**
     * {@code strconv.Quote}: double quotes; {@code "} and {@code \} escaped; printable characters kept;
     * {@code \a \b \f \n \r \t \v}; other characters below U+0020 and U+007F as {@code \xNN}; other
     * non-printable ones as a four- or eight-digit {@code u}/{@code U} escape. A lone surrogate (invalid UTF-16, which
     * Go would have read as U+FFFD) prints as U+FFFD.
     */
    public static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2);
        appendQuoted(b, s);
        return b.toString();
    }

    /** {@link #quote} appended to {@code b}. */
    public static void appendQuoted(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            if (cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE) {
                cp = 0xfffd;
            }
            if (cp == '"' || cp == '\\') {
                b.append('\\').append((char) cp);
            } else if (isPrint(cp)) {
                b.appendCodePoint(cp);
            } else {
                escape(b, cp);
            }
        }
        b.append('"');
    }

    /**
     * {@code strconv.QuoteRune}-like quoting of one character between single quotes, as
     * {@code encoding/json} names a bad byte ({@code quoteChar}): {@code 'x'}, {@code '\''}, {@code '"'},
     * {@code '\n'}, {@code '\x01'}; the byte read as the character of the same code (Latin-1).
     */
    public static String quoteChar(int c) {
        if (c == '\'') {
            return "'\\''";
        }
        if (c == '"') {
            return "'\"'";
        }
        String quoted = quote(new String(Character.toChars(c)));
        return "'" + quoted.substring(1, quoted.length() - 1) + "'";
    }

    /** Go's {@code unicode.IsPrint}: letters, marks, numbers, punctuation, symbols and the ASCII space. */
    public static boolean isPrint(int cp) {
        if (cp < 0x80) {
            return cp >= 0x20 && cp < 0x7f;
        }
        return switch (Character.getType(cp)) {
            case Character.UPPERCASE_LETTER, Character.LOWERCASE_LETTER, Character.TITLECASE_LETTER,
                 Character.MODIFIER_LETTER, Character.OTHER_LETTER, Character.NON_SPACING_MARK,
                 Character.ENCLOSING_MARK, Character.COMBINING_SPACING_MARK, Character.DECIMAL_DIGIT_NUMBER,
                 Character.LETTER_NUMBER, Character.OTHER_NUMBER, Character.CONNECTOR_PUNCTUATION,
                 Character.DASH_PUNCTUATION, Character.START_PUNCTUATION, Character.END_PUNCTUATION,
                 Character.INITIAL_QUOTE_PUNCTUATION, Character.FINAL_QUOTE_PUNCTUATION,
                 Character.OTHER_PUNCTUATION, Character.MATH_SYMBOL, Character.CURRENCY_SYMBOL,
                 Character.MODIFIER_SYMBOL, Character.OTHER_SYMBOL -> true;
            default -> false;
        };
    }

    private static void escape(StringBuilder b, int cp) {
        switch (cp) {
            case 7 -> b.append("\\a");
            case '\b' -> b.append("\\b");
            case '\f' -> b.append("\\f");
            case '\n' -> b.append("\\n");
            case '\r' -> b.append("\\r");
            case '\t' -> b.append("\\t");
            case 11 -> b.append("\\v");
            default -> {
                if (cp < 0x20 || cp == 0x7f) {
                    b.append("\\x").append(HEX[cp >> 4]).append(HEX[cp & 0xf]);
                } else if (cp < 0x10000) {
                    hex(b.append("\\u"), cp, 4);
                } else {
                    hex(b.append("\\U"), cp, 8);
                }
            }
        }
    }

    private static void hex(StringBuilder b, int value, int digits) {
        for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
            b.append(HEX[(value >> shift) & 0xf]);
        }
    }
}

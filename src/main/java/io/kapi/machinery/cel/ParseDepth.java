package io.kapi.machinery.cel;

/**
 * How deep an expression's brackets nest, read without parsing it: the parser recurses once per level, and
 * cel-go (kube's CEL) refuses an expression whose {@code expr} rules nest deeper than {@link #LIMIT}. Each
 * {@code (}, {@code [} and <code>{</code> opens one more {@code expr} inside the one it is in (a nested
 * expression, a list or map element, a call's or an index's argument), so an expression whose brackets nest
 * {@link #LIMIT} deep is one cel-go refuses, whatever else it holds. Brackets in string literals and
 * comments do not count.
 */
final class ParseDepth {

    /** cel-go's default parser recursion limit, which kube keeps. */
    static final int LIMIT = 250;

    /** cel-go's error for an expression past {@link #LIMIT}: reported without a location. */
    static final String ERROR = "ERROR: <input>:-1:0: expression recursion limit exceeded: " + LIMIT;

    private ParseDepth() {
    }

    /** Whether {@code expression}'s brackets nest so deep that cel-go refuses it. */
    static boolean exceeded(String expression) {
        int depth = 0;
        int i = 0;
        int n = expression.length();
        while (i < n) {
            char c = expression.charAt(i);
            if (c == '\'' || c == '"') {
                i = afterString(expression, i);
                continue;
            }
            if (c == '/' && i + 1 < n && expression.charAt(i + 1) == '/') {
                int eol = expression.indexOf('\n', i);
                i = eol < 0 ? n : eol + 1;
                continue;
            }
            if (c == '(' || c == '[' || c == '{') {
                if (++depth >= LIMIT) {
                    return true;
                }
            } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
                depth--;
            }
            i++;
        }
        return false;
    }

    /**
     * The index after the string literal opening at {@code start} (single or triple quoted; a backslash
     * escapes the next character, which only makes a raw string end later here, so counts fewer brackets).
     */
    private static int afterString(String s, int start) {
        char quote = s.charAt(start);
        boolean triple = s.startsWith(String.valueOf(quote).repeat(3), start);
        String close = triple ? String.valueOf(quote).repeat(3) : String.valueOf(quote);
        int i = start + close.length();
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '\\') {
                i += 2;
            } else if (s.startsWith(close, i)) {
                return i + close.length();
            } else if (c == '\n' && !triple) {
                return i + 1;
            } else {
                i++;
            }
        }
        return s.length();
    }
}

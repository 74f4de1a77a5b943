package io.kapi.machinery.validation;

/**
 * The check of Go's {@code base64.StdEncoding.Decode} ({@code []byte} fields such as Secret data): standard
 * alphabet, padding required, CR and LF ignored. Returns {@code illegal base64 data at input byte N} or null.
 */
final class GoBase64 {

    private GoBase64() {
    }

    static String check(String s) {
        int n = 0;
        int padding = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\r' || c == '\n') {
                continue;
            }
            if (c == '=') {
                if (n % 4 < 2) {
                    return error(i);
                }
                padding++;
                n++;
                continue;
            }
            boolean alphabet = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                    || c == '+' || c == '/';
            if (!alphabet || padding > 0) {
                return error(i);
            }
            n++;
        }
        if (n % 4 != 0) {
            return error(s.length() - (n % 4 == 1 ? 1 : 0));
        }
        return null;
    }

    private static String error(int offset) {
        return "illegal base64 data at input byte " + offset;
    }
}

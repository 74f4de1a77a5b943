package io.kapi.machinery.validation;

/**
 * Whether a string has one of the forms of {@code k8s.io/apimachinery/pkg/util/validation}, matched whole
 * by hand: the same answers as kube's regular expressions ({@link Identifiers}' {@code *_FMT}), without a
 * regular-expression engine on every name, label and annotation key of every write. Lengths are not checked
 * here. Characters outside ASCII belong to none of the classes, as in Go's byte-wise matching.
 */
final class IdentifierForms {

    private IdentifierForms() {
    }

    /** {@code [a-z0-9]([-a-z0-9]*[a-z0-9])?} */
    static boolean dns1123Label(String s) {
        return dns1123Label(s, 0, s.length());
    }

    /** {@code [a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*} */
    static boolean dns1123Subdomain(String s) {
        int start = 0;
        while (true) {
            int dot = s.indexOf('.', start);
            int end = dot < 0 ? s.length() : dot;
            if (!dns1123Label(s, start, end)) {
                return false;
            }
            if (dot < 0) {
                return true;
            }
            start = dot + 1;
        }
    }

    /** {@code [a-z]([-a-z0-9]*[a-z0-9])?} */
    static boolean dns1035Label(String s) {
        return dns1123Label(s) && lower(s.charAt(0));
    }

    /** {@code ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]} */
    static boolean qualifiedName(String s) {
        int n = s.length();
        if (n == 0 || !alphanumeric(s.charAt(0)) || !alphanumeric(s.charAt(n - 1))) {
            return false;
        }
        for (int i = 1; i < n - 1; i++) {
            char c = s.charAt(i);
            if (!alphanumeric(c) && c != '-' && c != '_' && c != '.') {
                return false;
            }
        }
        return true;
    }

    /** {@code (([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?} */
    static boolean labelValue(String s) {
        return s.isEmpty() || qualifiedName(s);
    }

    private static boolean dns1123Label(String s, int from, int to) {
        if (to <= from || !lowerOrDigit(s.charAt(from)) || !lowerOrDigit(s.charAt(to - 1))) {
            return false;
        }
        for (int i = from + 1; i < to - 1; i++) {
            char c = s.charAt(i);
            if (!lowerOrDigit(c) && c != '-') {
                return false;
            }
        }
        return true;
    }

    private static boolean lower(char c) {
        return c >= 'a' && c <= 'z';
    }

    private static boolean lowerOrDigit(char c) {
        return lower(c) || c >= '0' && c <= '9';
    }

    private static boolean alphanumeric(char c) {
        return lowerOrDigit(c) || c >= 'A' && c <= 'Z';
    }
}

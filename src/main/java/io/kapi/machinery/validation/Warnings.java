package io.kapi.machinery.validation;

/**
 * Formats {@code Warning} response headers as kube-apiserver does: code 299, agent {@code -}, the text as a
 * quoted string with {@code "} and {@code \} escaped: {@code 299 - "unknown field \"spec.foo\""}. kubectl
 * prints it as {@code Warning: unknown field "spec.foo"}.
 */
public final class Warnings {

    private Warnings() {
    }

    /** The value of one {@code Warning} header for {@code text}. */
    public static String header(String text) {
        StringBuilder b = new StringBuilder(text.length() + 10).append("299 - \"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7f) {
                b.append(' ');
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }
}

package io.kapi.logs;

import java.util.regex.Pattern;

/**
 * The last guard against a credential in the logs: whatever a message or value holds, bearer and
 * basic credentials, JSON web tokens and PEM private keys are masked before a line is written. Kapi's
 * own log calls never pass one; this catches what a library (Jetty's debug output at {@code -v=6}, an
 * exception's message) might.
 */
final class Redaction {

    private static final Pattern AUTH_SCHEME = Pattern.compile("(?i)\\b(bearer|basic)\\s+[A-Za-z0-9._~+/=-]+");
    private static final Pattern JWT = Pattern.compile("\\beyJ[A-Za-z0-9_-]*\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*");
    private static final Pattern PRIVATE_KEY = Pattern.compile(
            "-----BEGIN ([A-Z ]*)PRIVATE KEY-----[\\s\\S]*?(-----END [A-Z ]*PRIVATE KEY-----|\\z)");

    private Redaction() {
    }

    static String scrub(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String s = text;
        if (s.contains("PRIVATE KEY")) {
            s = PRIVATE_KEY.matcher(s).replaceAll("<masked private key>");
        }
        if (s.contains("eyJ")) {
            s = JWT.matcher(s).replaceAll("<masked>");
        }
        return AUTH_SCHEME.matcher(s).replaceAll("$1 <masked>");
    }
}

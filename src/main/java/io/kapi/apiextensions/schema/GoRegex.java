package io.kapi.apiextensions.schema;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Go regular expressions (RE2, what kube-apiserver compiles {@code pattern} with) read by Java's engine:
 * the syntax both share is the same; RE2's extras are translated ({@code (?P<name>}, POSIX classes) and
 * what RE2 refuses (look-around, back references) is refused here too, with Go's wording.
 */
final class GoRegex {

    private static final Pattern POSIX = Pattern.compile("\\[:(alnum|alpha|ascii|blank|cntrl|digit|graph|lower|print"
            + "|punct|space|upper|word|xdigit):]");
    private static final Pattern UNSUPPORTED = Pattern.compile("\\(\\?(=|!|<=|<!)");
    private static final Pattern BACK_REFERENCE = Pattern.compile("(?<!\\\\)\\\\[1-9]");

    private GoRegex() {
    }

    /** The Java form of a Go pattern (which must be {@link #error valid}). */
    static String toJava(String go) {
        String s = go.replace("(?P<", "(?<");
        Matcher m = POSIX.matcher(s);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            String cls = switch (m.group(1)) {
                case "word" -> "\\\\w";
                case "ascii" -> "\\\\p{ASCII}";
                case "xdigit" -> "\\\\p{XDigit}";
                default -> "\\\\p{" + Character.toUpperCase(m.group(1).charAt(0)) + m.group(1).substring(1) + "}";
            };
            m.appendReplacement(b, cls);
        }
        m.appendTail(b);
        return b.toString();
    }

    /** Go's {@code regexp.Compile} error for {@code go}, or empty when it compiles. */
    static Optional<String> error(String go) {
        Matcher look = UNSUPPORTED.matcher(go);
        if (look.find()) {
            return Optional.of("error parsing regexp: invalid or unsupported Perl syntax: `" + look.group() + "`");
        }
        Matcher back = BACK_REFERENCE.matcher(go);
        if (back.find()) {
            return Optional.of("error parsing regexp: invalid escape sequence: `" + back.group() + "`");
        }
        try {
            Pattern.compile(toJava(go));
            return Optional.empty();
        } catch (PatternSyntaxException e) {
            return Optional.of("error parsing regexp: " + e.getDescription().toLowerCase(java.util.Locale.ROOT)
                    + ": `" + go + "`");
        }
    }
}

package io.kapi.registry;

import io.kapi.machinery.ApiException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A parsed field selector, as {@code fields.ParseSelector}: terms joined by AND, each
 * {@code field=value}, {@code field==value} or {@code field!=value}; {@code \,}, {@code \=} and
 * {@code \\} escape those characters in values.
 */
public record FieldSelector(List<Term> terms) {

    public static final FieldSelector EVERYTHING = new FieldSelector(List.of());

    /** One term; {@code equals} false means {@code !=}. */
    public record Term(String field, String value, boolean equals) {
    }

    public boolean isEverything() {
        return terms.isEmpty();
    }

    /** The value an {@code =} term gives {@code field}, or null when none pins it. */
    public String pinned(String field) {
        for (Term t : terms) {
            if (t.equals() && t.field().equals(field)) {
                return t.value();
            }
        }
        return null;
    }

    /** Whether an object whose selectable fields have these values matches. */
    public boolean matches(Map<String, String> fields) {
        for (Term t : terms) {
            boolean same = t.value().equals(fields.get(t.field()));
            if (same != t.equals()) {
                return false;
            }
        }
        return true;
    }

    /** Parses a selector; null or blank selects everything; 400 BadRequest when it does not parse. */
    public static FieldSelector parse(String selector) {
        if (selector == null || selector.isBlank()) {
            return EVERYTHING;
        }
        List<Term> terms = new ArrayList<>();
        for (String term : splitUnescaped(selector, ',')) {
            terms.add(term(term, selector));
        }
        return new FieldSelector(List.copyOf(terms));
    }

    private static Term term(String term, String selector) {
        for (String op : new String[] {"!=", "==", "="}) {
            int at = indexUnescaped(term, op);
            if (at >= 0) {
                String field = term.substring(0, at).trim();
                String value = unescape(term.substring(at + op.length()));
                if (field.isEmpty()) {
                    break;
                }
                return new Term(field, value, !op.equals("!="));
            }
        }
        throw ApiException.badRequest("invalid selector: '" + selector + "'; can't understand '" + term + "'");
    }

    private static int indexUnescaped(String s, String op) {
        for (int i = 0; i + op.length() <= s.length(); i++) {
            if (s.charAt(i) == '\\') {
                i++;
            } else if (s.startsWith(op, i)) {
                return i;
            }
        }
        return -1;
    }

    private static List<String> splitUnescaped(String s, char separator) {
        List<String> parts = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                current.append(c).append(s.charAt(++i));
            } else if (c == separator) {
                parts.add(current.toString());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        parts.add(current.toString());
        return parts;
    }

    private static String unescape(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                c = s.charAt(++i);
            }
            b.append(c);
        }
        return b.toString();
    }
}

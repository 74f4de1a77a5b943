package io.kapi.registry;

import io.kapi.machinery.ApiException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A parsed label selector: requirements joined by AND, in the syntax of {@code labels.Parse}:
 * {@code k=v}, {@code k==v}, {@code k!=v}, {@code k in (a,b)}, {@code k notin (a,b)}, {@code k}, {@code !k}.
 */
public record LabelSelector(List<Requirement> requirements) {

    public static final LabelSelector EVERYTHING = new LabelSelector(List.of());

    /** The operators of a requirement. */
    public enum Operator { EQUALS, NOT_EQUALS, IN, NOT_IN, EXISTS, DOES_NOT_EXIST }

    /** One requirement on one label key. */
    public record Requirement(String key, Operator operator, Set<String> values) {

        boolean matches(Map<String, String> labels) {
            String v = labels.get(key);
            return switch (operator) {
                case EQUALS, IN -> v != null && values.contains(v);
                case NOT_EQUALS, NOT_IN -> v == null || !values.contains(v);
                case EXISTS -> v != null;
                case DOES_NOT_EXIST -> v == null;
            };
        }
    }

    public boolean matches(Map<String, String> labels) {
        for (Requirement r : requirements) {
            if (!r.matches(labels)) {
                return false;
            }
        }
        return true;
    }

    public boolean isEverything() {
        return requirements.isEmpty();
    }

    /**
     * A {@code metav1.LabelSelector} object ({@code matchLabels}, {@code matchExpressions}); null, missing
     * or empty selects everything.
     */
    public static LabelSelector of(com.fasterxml.jackson.databind.JsonNode selector) {
        if (selector == null || !selector.isObject()) {
            return EVERYTHING;
        }
        List<Requirement> requirements = new ArrayList<>();
        selector.path("matchLabels").properties().forEach(e -> requirements.add(
                new Requirement(e.getKey(), Operator.EQUALS, Set.of(e.getValue().asText()))));
        for (com.fasterxml.jackson.databind.JsonNode expression : selector.path("matchExpressions")) {
            Set<String> values = new java.util.HashSet<>();
            expression.path("values").forEach(v -> values.add(v.asText()));
            Operator op = switch (expression.path("operator").asText()) {
                case "In" -> Operator.IN;
                case "NotIn" -> Operator.NOT_IN;
                case "Exists" -> Operator.EXISTS;
                default -> Operator.DOES_NOT_EXIST;
            };
            requirements.add(new Requirement(expression.path("key").asText(), op, Set.copyOf(values)));
        }
        return new LabelSelector(List.copyOf(requirements));
    }

    /**
     * Parses a selector; null or blank selects everything.
     *
     * @throws ApiException 400 BadRequest when the selector does not parse
     */
    public static LabelSelector parse(String selector) {
        if (selector == null || selector.isBlank()) {
            return EVERYTHING;
        }
        List<Requirement> requirements = new ArrayList<>();
        for (String part : splitTopLevel(selector)) {
            requirements.add(requirement(part.trim(), selector));
        }
        return new LabelSelector(List.copyOf(requirements));
    }

    private static Requirement requirement(String s, String whole) {
        if (s.isEmpty()) {
            throw invalid(whole, "found '', expected: !, identifier, or 'end of string'");
        }
        if (s.startsWith("!")) {
            return new Requirement(key(s.substring(1).trim(), whole), Operator.DOES_NOT_EXIST, Set.of());
        }
        int paren = s.indexOf('(');
        if (paren > 0 && s.endsWith(")")) {
            String[] head = s.substring(0, paren).trim().split("\\s+");
            if (head.length == 2 && (head[1].equals("in") || head[1].equals("notin"))) {
                Set<String> values = Set.copyOf(splitValues(s.substring(paren + 1, s.length() - 1)));
                return new Requirement(key(head[0], whole),
                        head[1].equals("in") ? Operator.IN : Operator.NOT_IN, values);
            }
            throw invalid(whole, "found '" + s + "', expected: in, notin");
        }
        for (String op : new String[] {"!=", "==", "="}) {
            int at = s.indexOf(op);
            if (at > 0) {
                String value = s.substring(at + op.length()).trim();
                Operator operator = op.equals("!=") ? Operator.NOT_EQUALS : Operator.EQUALS;
                return new Requirement(key(s.substring(0, at).trim(), whole), operator, Set.of(value));
            }
        }
        return new Requirement(key(s, whole), Operator.EXISTS, Set.of());
    }

    private static String key(String key, String whole) {
        if (key.isEmpty() || !key.matches("([A-Za-z0-9.\\-]+/)?[A-Za-z0-9]([A-Za-z0-9_.\\-]*[A-Za-z0-9])?")) {
            throw invalid(whole, "invalid label key \"" + key + "\"");
        }
        return key;
    }

    private static List<String> splitValues(String inner) {
        List<String> values = new ArrayList<>();
        for (String v : inner.split(",", -1)) {
            values.add(v.trim());
        }
        return values;
    }

    private static List<String> splitTopLevel(String selector) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < selector.length(); i++) {
            char c = selector.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(selector.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(selector.substring(start));
        return parts;
    }

    private static ApiException invalid(String selector, String why) {
        return ApiException.badRequest("unable to parse requirement: " + why);
    }
}

package io.kapi.endpoint.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The subset of client-go's JSONPath that CRD printer columns use, with missing keys allowed: fields
 * ({@code .a}, {@code ['a.b']}), array indexes ({@code [0]}, {@code [-1]}), wildcards ({@code [*]},
 * {@code .*}) and filters comparing a field to a literal ({@code [?(@.type=="Ready")]}, also {@code !=},
 * {@code <}, {@code >}, {@code <=}, {@code >=}, and bare existence {@code [?(@.x)]}).
 * Recursive descent and slices are not supported: {@link #parse} rejects them.
 */
final class JsonPath {

    private sealed interface Step {
    }

    private record Field(String name) implements Step {
    }

    private record Index(int index) implements Step {
    }

    private record Wildcard() implements Step {
    }

    private record Filter(List<Step> path, String op, JsonNode literal) implements Step {
    }

    private final List<Step> steps;

    private JsonPath(List<Step> steps) {
        this.steps = steps;
    }

    /**
     * Parses a path such as {@code .status.conditions[?(@.type=="Ready")].status}; braces around it are optional.
     *
     * @throws IllegalArgumentException when the path is not in the supported subset
     */
    static JsonPath parse(String path) {
        String p = path.strip();
        if (p.startsWith("{") && p.endsWith("}")) {
            p = p.substring(1, p.length() - 1).strip();
        }
        return new JsonPath(new Parser(p).steps(false));
    }

    /** Every value the path selects in {@code root}, in document order; empty when a key is missing. */
    List<JsonNode> find(JsonNode root) {
        List<JsonNode> current = List.of(root);
        for (Step step : steps) {
            List<JsonNode> next = new ArrayList<>();
            for (JsonNode n : current) {
                apply(step, n, next);
            }
            current = next;
        }
        return current;
    }

    private static void apply(Step step, JsonNode n, List<JsonNode> out) {
        switch (step) {
            case Field f -> {
                JsonNode v = n.isObject() ? n.get(f.name()) : null;
                if (v != null) {
                    out.add(v);
                }
            }
            case Index i -> {
                if (n.isArray()) {
                    int idx = i.index() < 0 ? n.size() + i.index() : i.index();
                    if (idx >= 0 && idx < n.size()) {
                        out.add(n.get(idx));
                    }
                }
            }
            case Wildcard w -> {
                if (n.isContainerNode()) {
                    n.elements().forEachRemaining(out::add);
                }
            }
            case Filter f -> {
                if (n.isArray()) {
                    for (JsonNode e : n) {
                        if (matches(f, e)) {
                            out.add(e);
                        }
                    }
                }
            }
        }
    }

    private static boolean matches(Filter f, JsonNode element) {
        List<JsonNode> found = new JsonPath(f.path()).find(element);
        if (f.op() == null) {
            return !found.isEmpty();
        }
        if (found.isEmpty()) {
            return false;
        }
        JsonNode left = found.getFirst();
        JsonNode right = f.literal();
        if (left.isNumber() && right.isNumber()) {
            int c = left.decimalValue().compareTo(right.decimalValue());
            return switch (f.op()) {
                case "==" -> c == 0;
                case "!=" -> c != 0;
                case "<" -> c < 0;
                case ">" -> c > 0;
                case "<=" -> c <= 0;
                default -> c >= 0;
            };
        }
        boolean equal = left.isValueNode() && right.isValueNode() && left.asText().equals(right.asText())
                && left.isTextual() == right.isTextual();
        return switch (f.op()) {
            case "==" -> equal;
            case "!=" -> !equal;
            default -> false;
        };
    }

    /** A small recursive-descent parser over the path text. */
    private static final class Parser {
        private final String s;
        private int pos;

        Parser(String s) {
            this.s = s;
        }

        /** Steps up to the end, or (inside a filter) up to the comparison operator or closing parenthesis. */
        List<Step> steps(boolean inFilter) {
            List<Step> steps = new ArrayList<>();
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (inFilter && (c == ')' || c == '=' || c == '!' || c == '<' || c == '>' || c == ' ')) {
                    break;
                }
                if (c == '.') {
                    pos++;
                    if (pos < s.length() && s.charAt(pos) == '.') {
                        throw fail("recursive descent is not supported");
                    }
                    if (pos < s.length() && s.charAt(pos) == '*') {
                        pos++;
                        steps.add(new Wildcard());
                    } else if (pos < s.length() && s.charAt(pos) != '[') {
                        steps.add(new Field(identifier()));
                    }
                } else if (c == '[') {
                    steps.add(bracket());
                } else {
                    throw fail("unexpected '" + c + "'");
                }
            }
            return steps;
        }

        private String identifier() {
            int start = pos;
            while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || "_-/".indexOf(s.charAt(pos)) >= 0)) {
                pos++;
            }
            if (start == pos) {
                throw fail("expected a field name");
            }
            return s.substring(start, pos);
        }

        private Step bracket() {
            pos++; // [
            Step step;
            char c = peek();
            if (c == '*') {
                pos++;
                step = new Wildcard();
            } else if (c == '\'' || c == '"') {
                step = new Field(quoted());
            } else if (c == '?') {
                step = filter();
            } else {
                int start = pos;
                while (pos < s.length() && (Character.isDigit(s.charAt(pos)) || s.charAt(pos) == '-')) {
                    pos++;
                }
                if (start == pos || peek() == ':') {
                    throw fail("only single indexes are supported");
                }
                step = new Index(Integer.parseInt(s.substring(start, pos)));
            }
            expect(']');
            return step;
        }

        private Step filter() {
            pos++; // ?
            expect('(');
            skipSpaces();
            expect('@');
            List<Step> path = steps(true);
            skipSpaces();
            String op = null;
            JsonNode literal = null;
            if (peek() != ')') {
                int start = pos;
                while (pos < s.length() && "=!<>".indexOf(s.charAt(pos)) >= 0) {
                    pos++;
                }
                op = s.substring(start, pos);
                if (!List.of("==", "!=", "<", ">", "<=", ">=").contains(op)) {
                    throw fail("unknown operator " + op);
                }
                skipSpaces();
                literal = literal();
                skipSpaces();
            }
            expect(')');
            return new Filter(path, op, literal);
        }

        private JsonNode literal() {
            char c = peek();
            if (c == '\'' || c == '"') {
                return Json.text(quoted());
            }
            int start = pos;
            while (pos < s.length() && s.charAt(pos) != ')' && s.charAt(pos) != ' ') {
                pos++;
            }
            String word = s.substring(start, pos);
            if (word.equals("true") || word.equals("false")) {
                return Json.bool(Boolean.parseBoolean(word));
            }
            try {
                return Json.number(new java.math.BigDecimal(word));
            } catch (NumberFormatException e) {
                throw fail("bad literal " + word);
            }
        }

        private String quoted() {
            char q = s.charAt(pos++);
            int end = s.indexOf(q, pos);
            if (end < 0) {
                throw fail("unterminated string");
            }
            String v = s.substring(pos, end);
            pos = end + 1;
            return v;
        }

        private char peek() {
            return pos < s.length() ? s.charAt(pos) : '\0';
        }

        private void expect(char c) {
            if (peek() != c) {
                throw fail("expected '" + c + "'");
            }
            pos++;
        }

        private void skipSpaces() {
            while (peek() == ' ') {
                pos++;
            }
        }

        private IllegalArgumentException fail(String why) {
            return new IllegalArgumentException("unrecognized JSONPath " + s + ": " + why + " at " + pos);
        }
    }

    /** Literal nodes for filters. */
    private static final class Json {
        static JsonNode text(String s) {
            return io.kapi.machinery.Json.NODES.textNode(s);
        }

        static JsonNode bool(boolean b) {
            return io.kapi.machinery.Json.NODES.booleanNode(b);
        }

        static JsonNode number(java.math.BigDecimal d) {
            return io.kapi.machinery.Json.NODES.numberNode(d);
        }
    }
}

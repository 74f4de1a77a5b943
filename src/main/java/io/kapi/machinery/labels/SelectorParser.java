package io.kapi.machinery.labels;

import io.kapi.machinery.GoStrings;
import io.kapi.machinery.labels.Requirement.Operator;
import io.kapi.machinery.validation.Identifiers;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The lexer and recursive-descent parser of {@code labels.Parse}, token for token, so that what it
 * accepts and the errors it gives are kube-apiserver's: {@code found 'b', expected: in, notin, =, ==,
 * !=, gt, lt}, {@code unable to parse requirement: <nil>: Invalid value: "-x": name part must ...}.
 */
final class SelectorParser {

    private enum Token {
        ERROR, END_OF_STRING, CLOSED_PAR, COMMA, DOES_NOT_EXIST, DOUBLE_EQUALS, EQUALS, GREATER_THAN,
        IDENTIFIER, IN, LESS_THAN, NOT_EQUALS, NOT_IN, OPEN_PAR
    }

    private record Item(Token token, String literal) {
    }

    private static final String BINARY_OPERATORS = "in, notin, =, ==, !=, gt, lt";

    private final List<Item> items = new ArrayList<>();
    private int position;

    private SelectorParser(String s) {
        Lexer lexer = new Lexer(s);
        Item item;
        do {
            item = lexer.next();
            items.add(item);
        } while (item.token() != Token.END_OF_STRING);
    }

    /**
     * The requirements of {@code selector}, in the order written.
     *
     * @throws IllegalArgumentException with kube's message when it does not parse
     */
    static List<Requirement> parse(String selector) {
        return new SelectorParser(selector).requirements();
    }

    private List<Requirement> requirements() {
        List<Requirement> requirements = new ArrayList<>();
        while (true) {
            Item item = lookahead(true);
            switch (item.token()) {
                case IDENTIFIER, DOES_NOT_EXIST -> {
                    try {
                        requirements.add(requirement());
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException("unable to parse requirement: " + e.getMessage());
                    }
                    Item next = consume(true);
                    switch (next.token()) {
                        case END_OF_STRING -> {
                            return requirements;
                        }
                        case COMMA -> {
                            Item after = lookahead(true);
                            if (after.token() != Token.IDENTIFIER && after.token() != Token.DOES_NOT_EXIST) {
                                throw error("found '%s', expected: identifier after ','", after.literal());
                            }
                        }
                        default -> throw error("found '%s', expected: ',' or 'end of string'", next.literal());
                    }
                }
                case END_OF_STRING -> {
                    return requirements;
                }
                default -> throw error("found '%s', expected: !, identifier, or 'end of string'", item.literal());
            }
        }
    }

    private Requirement requirement() {
        Operator operator = null;
        Item item = consume(true);
        if (item.token() == Token.DOES_NOT_EXIST) {
            operator = Operator.DOES_NOT_EXIST;
            item = consume(true);
        }
        if (item.token() != Token.IDENTIFIER) {
            throw error("found '%s', expected: identifier", item.literal());
        }
        String key = item.literal();
        List<String> keyErrors = Identifiers.qualifiedName(key);
        if (!keyErrors.isEmpty()) {
            throw error("<nil>: Invalid value: %s: %s", GoStrings.quote(key), String.join("; ", keyErrors));
        }
        Token next = lookahead(true).token();
        if ((next == Token.END_OF_STRING || next == Token.COMMA) && operator == null) {
            operator = Operator.EXISTS;
        }
        if (operator != null) {
            return Requirement.validated(key, operator, List.of(), null);
        }
        operator = operator();
        List<String> values = operator == Operator.IN || operator == Operator.NOT_IN ? values() : exactValue();
        return Requirement.validated(key, operator, values, null);
    }

    private Operator operator() {
        Item item = consume(false);
        return switch (item.token()) {
            case IN -> Operator.IN;
            case EQUALS -> Operator.EQUALS;
            case DOUBLE_EQUALS -> Operator.DOUBLE_EQUALS;
            case GREATER_THAN -> Operator.GREATER_THAN;
            case LESS_THAN -> Operator.LESS_THAN;
            case NOT_IN -> Operator.NOT_IN;
            case NOT_EQUALS -> Operator.NOT_EQUALS;
            default -> throw error("found '%s', expected: %s", item.literal(), BINARY_OPERATORS);
        };
    }

    /** {@code (a,b,c)}: a set, so sorted and without duplicates; {@code ()} is the empty value. */
    private List<String> values() {
        Item item = consume(true);
        if (item.token() != Token.OPEN_PAR) {
            throw error("found '%s' expected: '('", item.literal());
        }
        item = lookahead(true);
        switch (item.token()) {
            case IDENTIFIER, COMMA -> {
                TreeSet<String> values = identifiers();
                if (consume(true).token() != Token.CLOSED_PAR) {
                    throw error("found '%s', expected: ')'", item.literal());
                }
                return List.copyOf(values);
            }
            case CLOSED_PAR -> {
                consume(true);
                return List.of("");
            }
            default -> throw error("found '%s', expected: ',', ')' or identifier", item.literal());
        }
    }

    private TreeSet<String> identifiers() {
        TreeSet<String> values = new TreeSet<>();
        while (true) {
            Item item = consume(true);
            switch (item.token()) {
                case IDENTIFIER -> {
                    values.add(item.literal());
                    Item next = lookahead(true);
                    switch (next.token()) {
                        case COMMA -> {
                        }
                        case CLOSED_PAR -> {
                            return values;
                        }
                        default -> throw error("found '%s', expected: ',' or ')'", next.literal());
                    }
                }
                case COMMA -> {
                    if (values.isEmpty()) {
                        values.add("");
                    }
                    Token next = lookahead(true).token();
                    if (next == Token.CLOSED_PAR) {
                        values.add("");
                        return values;
                    }
                    if (next == Token.COMMA) {
                        values.add("");
                    }
                }
                default -> throw error("found '%s', expected: ',', or identifier", item.literal());
            }
        }
    }

    private List<String> exactValue() {
        Token next = lookahead(true).token();
        if (next == Token.END_OF_STRING || next == Token.COMMA) {
            return List.of("");
        }
        Item item = consume(true);
        if (item.token() == Token.IDENTIFIER) {
            return List.of(item.literal());
        }
        throw error("found '%s', expected: identifier", item.literal());
    }

    /** The current item; in values, the words {@code in} and {@code notin} are identifiers. */
    private Item lookahead(boolean values) {
        return asValue(items.get(position), values);
    }

    private Item consume(boolean values) {
        return asValue(items.get(position++), values);
    }

    private static Item asValue(Item item, boolean values) {
        return values && (item.token() == Token.IN || item.token() == Token.NOT_IN)
                ? new Item(Token.IDENTIFIER, item.literal()) : item;
    }

    private static IllegalArgumentException error(String format, Object... args) {
        return new IllegalArgumentException(format.formatted(args));
    }

    /** {@code labels.Lexer}: identifiers and keywords end at whitespace or a special symbol. */
    private static final class Lexer {

        private final String s;
        private int pos;

        Lexer(String s) {
            this.s = s;
        }

        /** The next character, 0 at the end (as Go's lexer, a NUL byte ends the input too). */
        private char read() {
            return pos < s.length() ? s.charAt(pos++) : 0;
        }

        private void unread() {
            pos--;
        }

        Item next() {
            char c = read();
            while (isWhitespace(c)) {
                c = read();
            }
            if (c == 0) {
                return new Item(Token.END_OF_STRING, "");
            }
            unread();
            return isSpecial(c) ? special() : identifierOrKeyword();
        }

        private Item identifierOrKeyword() {
            int start = pos;
            while (true) {
                char c = read();
                if (c == 0) {
                    break;
                }
                if (isSpecial(c) || isWhitespace(c)) {
                    unread();
                    break;
                }
            }
            String word = s.substring(start, Math.min(pos, s.length())).replace("\0", "");
            return switch (word) {
                case "in" -> new Item(Token.IN, word);
                case "notin" -> new Item(Token.NOT_IN, word);
                default -> new Item(Token.IDENTIFIER, word);
            };
        }

        /** The longest operator at the position: {@code !=} before {@code !}, {@code ==} before {@code =}. */
        private Item special() {
            Item last = null;
            StringBuilder buffer = new StringBuilder(2);
            while (true) {
                char c = read();
                if (c == 0) {
                    break;
                }
                if (!isSpecial(c)) {
                    unread();
                    break;
                }
                buffer.append(c);
                Token token = symbol(buffer.toString());
                if (token != null) {
                    last = new Item(token, buffer.toString());
                } else if (last != null) {
                    unread();
                    break;
                }
            }
            return last != null ? last : new Item(Token.ERROR, "error expected: keyword found '" + buffer + "'");
        }

        private static Token symbol(String s) {
            return switch (s) {
                case ")" -> Token.CLOSED_PAR;
                case "," -> Token.COMMA;
                case "!" -> Token.DOES_NOT_EXIST;
                case "==" -> Token.DOUBLE_EQUALS;
                case "=" -> Token.EQUALS;
                case ">" -> Token.GREATER_THAN;
                case "<" -> Token.LESS_THAN;
                case "!=" -> Token.NOT_EQUALS;
                case "(" -> Token.OPEN_PAR;
                default -> null;
            };
        }

        private static boolean isWhitespace(char c) {
            return c == ' ' || c == '\t' || c == '\r' || c == '\n';
        }

        private static boolean isSpecial(char c) {
            return c == '=' || c == '!' || c == '(' || c == ')' || c == ',' || c == '>' || c == '<';
        }
    }
}

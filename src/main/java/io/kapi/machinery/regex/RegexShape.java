package io.kapi.machinery.regex;

import java.util.ArrayDeque;
import java.util.Optional;

/**
 * The limits Go's {@code regexp/syntax} parser puts on a pattern's shape, which RE2/J lacks: measured in one
 * pass without recursion, before RE2/J sees the pattern (whose compiler recurses once per level and expands
 * counted repetitions, so a pattern past these limits could overflow its stack or fill the heap).
 * <ul>
 *   <li><b>Nested counted repetitions</b> ({@code repeatIsValid}): the counts of repetitions nested in one
 *       another, {@code (a{100}){100}}, multiply to at most 1000; else {@code invalid repeat count}.</li>
 *   <li><b>Height</b> ({@code maxHeight}): the syntax tree is at most 1000 levels deep; else
 *       {@code expression nests too deeply}.</li>
 *   <li><b>Size</b> ({@code maxSize}): the compiled program, as {@code calcSize} estimates it, is at most
 *       128 MiB of 40-byte instructions; else {@code expression too large}.</li>
 * </ul>
 * The tree measured is the pattern's as written: Go's parser merges some nodes as it goes (adjacent literals,
 * single-character alternatives), so near the height and size limits the measure may be a little larger than
 * Go's. Syntax errors are left to RE2/J; this reader only has to get through any text without failing.
 */
final class RegexShape {

    static final int MAX_REPEAT_PRODUCT = 1000;
    static final int MAX_HEIGHT = 1000;
    static final long MAX_SIZE = (128L << 20) / 40;

    /** A node's measure: height, estimated program size, and the largest product of nested repeat counts. */
    private record Node(int height, long size, long product) {
        static final Node LEAF = new Node(1, 1, 1);
    }

    /** An open group: its finished alternatives, and the concatenation being read. */
    private static final class Group {
        final boolean capture;
        int alternatives;
        int altHeight;
        long altSize;
        long altProduct;
        int items;
        int catHeight;
        long catSize;
        long catProduct;
        Node last;

        Group(boolean capture) {
            this.capture = capture;
        }

        void push(Node node) {
            flushLast();
            last = node;
        }

        void flushLast() {
            if (last != null) {
                items++;
                catHeight = Math.max(catHeight, last.height());
                catSize = sum(catSize, last.size());
                catProduct = Math.max(catProduct, last.product());
                last = null;
            }
        }

        void endAlternative() {
            flushLast();
            Node cat = items == 0 ? Node.LEAF
                    : items == 1 ? new Node(catHeight, catSize, catProduct)
                    : new Node(catHeight + 1, catSize, catProduct);
            alternatives++;
            altHeight = Math.max(altHeight, cat.height());
            altSize = sum(altSize, cat.size());
            altProduct = Math.max(altProduct, cat.product());
            items = 0;
            catHeight = 0;
            catSize = 0;
            catProduct = 0;
        }

        Node close() {
            endAlternative();
            Node body = alternatives == 1 ? new Node(altHeight, altSize, altProduct)
                    : new Node(altHeight + 1, sum(altSize, alternatives - 1), altProduct);
            return capture ? new Node(body.height() + 1, sum(body.size(), 2), body.product()) : body;
        }
    }

    private final String s;
    private int i;
    private final ArrayDeque<Group> groups = new ArrayDeque<>();
    private String error;

    private RegexShape(String pattern) {
        this.s = pattern;
    }

    /** Go's error for a pattern past one of these limits, or empty. */
    static Optional<String> limitError(String pattern) {
        RegexShape shape = new RegexShape(pattern);
        Node root = shape.read();
        if (shape.error != null) {
            return Optional.of(shape.error);
        }
        if (root.height() > MAX_HEIGHT) {
            return Optional.of("expression nests too deeply: `" + pattern + "`");
        }
        if (root.size() > MAX_SIZE) {
            return Optional.of("expression too large: `" + pattern + "`");
        }
        return Optional.empty();
    }

    private Node read() {
        groups.push(new Group(false));
        while (i < s.length() && error == null) {
            char c = s.charAt(i);
            switch (c) {
                case '(' -> open();
                case ')' -> {
                    i++;
                    if (groups.size() > 1) {
                        Node group = groups.pop().close();
                        groups.peek().push(group);
                    }
                }
                case '|' -> {
                    i++;
                    groups.peek().endAlternative();
                }
                case '*', '+', '?' -> {
                    i++;
                    repeat(c == '*' ? 0 : c == '+' ? 1 : 0, c == '?' ? 1 : -1, c == '*' ? 2 : 1, null);
                    lazy();
                }
                case '{' -> brace();
                case '[' -> {
                    skipClass();
                    groups.peek().push(Node.LEAF);
                }
                case '\\' -> escape();
                default -> {
                    i++;
                    groups.peek().push(Node.LEAF);
                }
            }
        }
        while (groups.size() > 1) {
            Node group = groups.pop().close();
            groups.peek().push(group);
        }
        return groups.pop().close();
    }

    private void open() {
        i++;
        boolean capture = true;
        if (i < s.length() && s.charAt(i) == '?') {
            if (s.startsWith("?P<", i) || s.startsWith("?<", i)) {
                int end = s.indexOf('>', i);
                i = end < 0 ? s.length() : end + 1;
            } else {
                capture = false;
                int j = i + 1;
                while (j < s.length() && s.charAt(j) != ')' && s.charAt(j) != ':') {
                    j++;
                }
                if (j < s.length() && s.charAt(j) == ')') {
                    i = j + 1; // (?flags): no group
                    return;
                }
                i = Math.min(j + 1, s.length());
            }
        }
        groups.push(new Group(capture));
    }

    /** A {@code {n}}, {@code {n,}} or {@code {n,m}} repetition, or else a literal brace, as Go reads it. */
    private void brace() {
        int j = i + 1;
        int min = 0;
        int max;
        int start = j;
        while (j < s.length() && Character.isDigit(s.charAt(j))) {
            min = Math.min(min * 10 + (s.charAt(j) - '0'), 100_000);
            j++;
        }
        if (j == start || j >= s.length()) {
            literalBrace();
            return;
        }
        if (s.charAt(j) == '}') {
            max = min;
        } else if (s.charAt(j) == ',') {
            j++;
            int from = j;
            max = 0;
            while (j < s.length() && Character.isDigit(s.charAt(j))) {
                max = Math.min(max * 10 + (s.charAt(j) - '0'), 100_000);
                j++;
            }
            if (j >= s.length() || s.charAt(j) != '}') {
                literalBrace();
                return;
            }
            if (j == from) {
                max = -1;
            }
        } else {
            literalBrace();
            return;
        }
        String op = s.substring(i, j + 1);
        i = j + 1;
        repeat(min, max, -1, op);
        lazy();
    }

    private void literalBrace() {
        i++;
        groups.peek().push(Node.LEAF);
    }

    private void lazy() {
        if (i < s.length() && s.charAt(i) == '?') {
            i++;
        }
    }

    /**
     * Applies a repetition to the last item read.
     *
     * @param extra the instructions {@code *}, {@code +} and {@code ?} add; -1 for a counted repetition
     * @param op the text of a counted repetition, for its error
     */
    private void repeat(int min, int max, long extra, String op) {
        Group g = groups.peek();
        Node sub = g.last;
        if (sub == null) {
            return; // Go: missing argument to repetition operator, which RE2/J reports
        }
        if (op == null) {
            g.last = new Node(sub.height() + 1, sum(sub.size(), extra), sub.product());
            return;
        }
        long m = max == -1 ? min : max;
        if ((min >= 2 || max >= 2) && m > 0 && (m > MAX_REPEAT_PRODUCT || m * sub.product() > MAX_REPEAT_PRODUCT)) {
            error = "invalid repeat count: `" + op + "`";
            return;
        }
        long size;
        if (max == -1) {
            size = min == 0 ? sum(sub.size(), 2) : sum(1, multiply(min, sub.size()));
        } else {
            size = sum(multiply(max, sub.size()), max - min);
        }
        g.last = new Node(sub.height() + 1, Math.max(1, size), max == 0 ? 0 : m * sub.product());
    }

    private void escape() {
        i++;
        if (i >= s.length()) {
            return;
        }
        char c = s.charAt(i);
        if (c == 'Q') {
            int end = s.indexOf("\\E", i + 1);
            int stop = end < 0 ? s.length() : end;
            for (int k = i + 1; k < stop; k++) {
                groups.peek().push(Node.LEAF);
            }
            i = end < 0 ? s.length() : end + 2;
            return;
        }
        if ((c == 'p' || c == 'P' || c == 'x') && i + 1 < s.length() && s.charAt(i + 1) == '{') {
            int end = s.indexOf('}', i);
            i = end < 0 ? s.length() : end + 1;
        } else if (c == 'p' || c == 'P') {
            i = Math.min(i + 2, s.length());
        } else if (c == 'x') {
            i = Math.min(i + 3, s.length());
        } else {
            i++;
        }
        groups.peek().push(Node.LEAF);
    }

    /** Skips a character class: {@code []a]}, {@code [^]a]}, escapes, and {@code [:alpha:]} inside. */
    private void skipClass() {
        i++;
        if (i < s.length() && s.charAt(i) == '^') {
            i++;
        }
        if (i < s.length() && s.charAt(i) == ']') {
            i++;
        }
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == ']') {
                i++;
                return;
            }
            if (c == '\\') {
                i += 2;
            } else if (c == '[' && i + 1 < s.length() && s.charAt(i + 1) == ':') {
                int end = s.indexOf(":]", i + 2);
                i = end < 0 ? i + 1 : end + 2;
            } else {
                i++;
            }
        }
    }

    private static long sum(long a, long b) {
        long r = a + b;
        return r < 0 || r > Long.MAX_VALUE / 4 ? Long.MAX_VALUE / 4 : r;
    }

    private static long multiply(long a, long b) {
        if (a != 0 && b > (Long.MAX_VALUE / 4) / a) {
            return Long.MAX_VALUE / 4;
        }
        return a * b;
    }
}

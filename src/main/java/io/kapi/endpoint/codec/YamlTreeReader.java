package io.kapi.endpoint.codec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kapi.machinery.DecodeBudget;
import io.kapi.machinery.Json;
import java.io.IOException;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads the first YAML document of a body into a Jackson tree (later documents are ignored, as Go's
 * {@code yaml.Unmarshal} ignores them), noting duplicate keys the way {@code sigs.k8s.io/yaml}'s strict
 * conversion reports them: one message, {@code error converting YAML to JSON: yaml: unmarshal errors:\n
 * line 4: key "name" already set in map}. The last duplicate wins. Syntax errors become
 * {@code error converting YAML to JSON: yaml: line 3: <problem>}.
 */
final class YamlTreeReader {

    private static final YAMLFactory FACTORY = Json.yamlFactory()
            .loaderOptions(loaderOptions())
            .build();
    private static final JsonNodeFactory NODES = Json.NODES;
    private static final String PREFIX = "error converting YAML to JSON: yaml: ";

    private final JsonParser parser;
    private final List<String> duplicateLines = new ArrayList<>();
    private final Map<String, Anchor> anchors = new HashMap<>();
    private final DecodeBudget budget = new DecodeBudget();
    /** Nodes decoded, aliases expanded (keys included, as go-yaml counts), and those from aliases. */
    private long decoded;
    private long aliased;
    /** The deepest level reached since the innermost anchored value being read began. */
    private int deepest;

    /**
     * SnakeYAML's defaults allow 50 levels, too few for CRD schemas; this reader enforces
     * {@link DecodeBudget#MAX_DEPTH} itself, worded as go-yaml, and the body limit bounds the size.
     */
    private static org.yaml.snakeyaml.LoaderOptions loaderOptions() {
        org.yaml.snakeyaml.LoaderOptions options = new org.yaml.snakeyaml.LoaderOptions();
        options.setNestingDepthLimit(JsonTreeReader.MAX_DEPTH + 1);
        options.setCodePointLimit((int) RequestDecoder.MAX_BODY_BYTES + 1);
        options.setAllowDuplicateKeys(true);
        return options;
    }

    private YamlTreeReader(JsonParser parser) {
        this.parser = parser;
    }

    /** The first document of {@code data}, or null for an empty one; duplicates go to {@code duplicates}. */
    static JsonNode read(byte[] data, List<String> duplicates) {
        try (JsonParser p = FACTORY.createParser(data)) {
            YamlTreeReader r = new YamlTreeReader(p);
            JsonToken first = p.nextToken();
            if (first == null) {
                return null;
            }
            JsonNode value = r.value(first);
            if (!r.duplicateLines.isEmpty()) {
                duplicates.add(PREFIX + "unmarshal errors:\n" + String.join("\n", r.duplicateLines));
            }
            return value;
        } catch (IOException e) {
            throw new SyntaxError(PREFIX + describe(e));
        }
    }

    /**
     * The value starting at token {@code first}, read with an explicit stack of the mappings and sequences
     * open around it: a document may nest {@link DecodeBudget#MAX_DEPTH} levels, which must not need as many
     * frames of the thread's stack.
     */
    private JsonNode value(JsonToken first) throws IOException {
        List<Open> open = new ArrayList<>();
        JsonToken t = first;
        try {
            while (true) {
                JsonNode v = begin(t, open);
                while (true) {
                    if (v != null) {
                        if (open.isEmpty()) {
                            return v;
                        }
                        Open parent = open.getLast();
                        if (parent.node() instanceof ObjectNode obj) {
                            if (obj.replace(parent.key, v) != null) {
                                duplicateLines.add("  line %d: key \"%s\" already set in map".formatted(parent.line,
                                        parent.key));
                            }
                        } else {
                            ((ArrayNode) parent.node()).add(v);
                        }
                    }
                    Open top = open.getLast();
                    JsonToken next = parser.nextToken();
                    if (next == (top.node().isObject() ? JsonToken.END_OBJECT : JsonToken.END_ARRAY)) {
                        budget.exit();
                        open.removeLast();
                        finish(top.mark(), top.node());
                        v = top.node();
                        continue;
                    }
                    if (top.node().isObject()) {
                        top.key = parser.currentName();
                        decoded++;
                        budget.add(top.key.length() + 3L);
                        top.line = parser.currentTokenLocation().getLineNr();
                        t = parser.nextToken();
                    } else {
                        budget.add(1);
                        t = next;
                    }
                    break;
                }
            }
        } catch (DecodeBudget.Exceeded e) {
            throw exceeded(e);
        }
    }

    /**
     * Begins the value at token {@code t}: an alias's copy or a scalar is returned whole; a mapping or sequence
     * is opened on {@code open} and null returned. An anchored value is measured from here to its end.
     */
    private JsonNode begin(JsonToken t, List<Open> open) throws IOException {
        if (parser instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
            return alias(parser.getText());
        }
        String anchor = parser instanceof YAMLParser yaml ? yaml.getObjectId() : null;
        Mark mark = null;
        if (anchor != null) {
            mark = new Mark(anchor, decoded, budget.bytes(), deepest, budget.depth());
            deepest = budget.depth();
        }
        decoded++;
        switch (t) {
            case START_OBJECT -> {
                enter();
                open.add(new Open(NODES.objectNode(), mark));
                return null;
            }
            case START_ARRAY -> {
                enter();
                open.add(new Open(NODES.arrayNode(), mark));
                return null;
            }
            default -> {
                JsonNode node = scalar(t);
                finish(mark, node);
                return node;
            }
        }
    }

    /** Records an anchored value once read, with what it cost: nodes, JSON-equivalent bytes and levels. */
    private void finish(Mark mark, JsonNode node) {
        if (mark != null) {
            anchors.put(mark.anchor(), new Anchor(node, decoded - mark.nodes(), budget.bytes() - mark.bytes(),
                    deepest - mark.depth()));
            deepest = Math.max(deepest, mark.deepest());
        }
    }

    /** Where an anchored value began: the counts then, and the deepest level reached before it. */
    private record Mark(String anchor, long nodes, long bytes, int deepest, int depth) {
    }

    /** A mapping or sequence being read: the key (and its line) whose value comes next in a mapping. */
    private static final class Open {
        private final com.fasterxml.jackson.databind.node.ContainerNode<?> node;
        private final Mark mark;
        String key;
        int line;

        Open(com.fasterxml.jackson.databind.node.ContainerNode<?> node, Mark mark) {
            this.node = node;
            this.mark = mark;
        }

        com.fasterxml.jackson.databind.node.ContainerNode<?> node() {
            return node;
        }

        Mark mark() {
            return mark;
        }
    }

    /**
     * The anchored value named {@code name}, copied, after counting what the copy costs: Go's
     * {@code yaml.v2} refuses a document once more than 100 of more than 1000 decoded nodes came from
     * aliases and their share passes {@link #allowedAliasRatio}; the copy must also fit the depth and size
     * budget. So nothing is copied that a bomb would make large.
     */
    private JsonNode alias(String name) {
        Anchor target = anchors.get(name);
        if (target == null) {
            throw new SyntaxError(PREFIX + "unknown anchor '" + name + "' referenced");
        }
        decoded += target.nodes();
        aliased += target.nodes();
        if (aliased > 100 && decoded > 1000 && (double) aliased / decoded > allowedAliasRatio(decoded)) {
            throw new SyntaxError(PREFIX + "document contains excessive aliasing");
        }
        try {
            budget.addCopy(target.depth(), target.bytes());
        } catch (DecodeBudget.Exceeded e) {
            throw exceeded(e);
        }
        deepest = Math.max(deepest, budget.depth() + target.depth());
        return target.node().deepCopy();
    }

    /**
     * The share of decoded nodes that may come from aliases, as {@code yaml.v2} allows it: 99% up to
     * 400,000 nodes, falling evenly to 10% at 4,000,000.
     */
    static double allowedAliasRatio(long decodeCount) {
        long low = 400_000;
        long high = 4_000_000;
        if (decodeCount <= low) {
            return 0.99;
        }
        if (decodeCount >= high) {
            return 0.10;
        }
        return 0.99 - 0.89 * ((double) (decodeCount - low) / (high - low));
    }

    private JsonNode scalar(JsonToken t) throws IOException {
        JsonNode node = switch (t) {
            case VALUE_STRING -> NODES.textNode(parser.getText());
            case VALUE_NUMBER_INT -> switch (parser.getNumberType()) {
                case INT -> NODES.numberNode(parser.getIntValue());
                case LONG -> NODES.numberNode(parser.getLongValue());
                default -> NODES.numberNode(parser.getBigIntegerValue());
            };
            case VALUE_NUMBER_FLOAT -> floatNode(parser.getDecimalValue());
            case VALUE_TRUE -> NODES.booleanNode(true);
            case VALUE_FALSE -> NODES.booleanNode(false);
            case VALUE_NULL -> NODES.nullNode();
            default -> NODES.textNode(parser.getText());
        };
        budget.add(parser.getTextLength() + 2L);
        return node;
    }

    /** go-yaml's wording for a document too deep; a document too large can only be one of aliases. */
    private static SyntaxError exceeded(DecodeBudget.Exceeded e) {
        return new SyntaxError(PREFIX + (e.limit() == DecodeBudget.Exceeded.Limit.DEPTH
                ? "exceeded max depth of " + e.max() : "document contains excessive aliasing"));
    }

    /** An anchored value with what it cost to decode: nodes, JSON-equivalent bytes and levels. */
    private record Anchor(JsonNode node, long nodes, long bytes, int depth) {
    }

    /**
     * A YAML float as Go's YAML-to-JSON conversion writes it: integral values ({@code 1.0}) become integers,
     * since Go marshals the float64 1 as {@code 1}.
     */
    private static JsonNode floatNode(java.math.BigDecimal d) {
        if (d.signum() == 0) {
            return NODES.numberNode(0);
        }
        java.math.BigDecimal stripped = d.stripTrailingZeros();
        if (stripped.scale() <= 0 && stripped.precision() - stripped.scale() <= 18) {
            long v = stripped.longValueExact();
            return v == (int) v ? NODES.numberNode((int) v) : NODES.numberNode(v);
        }
        return NODES.numberNode(d);
    }

    private void enter() {
        budget.enter();
        deepest = Math.max(deepest, budget.depth());
    }

    /** {@code line N: problem}, as go-yaml words a scanner or parser error. */
    private static String describe(IOException e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof MarkedYAMLException y && y.getProblemMark() != null) {
                String problem = y.getProblem() == null ? "invalid YAML" : y.getProblem();
                problem = problem.replace("mapping values are not allowed here",
                        "mapping values are not allowed in this context");
                return "line %d: %s".formatted(y.getProblemMark().getLine() + 1, problem);
            }
        }
        String m = e instanceof com.fasterxml.jackson.core.JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
        return m == null ? "invalid YAML" : firstLine(m);
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}

package io.kapi.endpoint.codec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.util.ArrayList;
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

    private static final YAMLFactory FACTORY = new YAMLFactory();
    private static final JsonNodeFactory NODES = Json.NODES;
    private static final String PREFIX = "error converting YAML to JSON: yaml: ";

    private final JsonParser parser;
    private final List<String> duplicateLines = new ArrayList<>();

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

    private JsonNode value(JsonToken t) throws IOException {
        return switch (t) {
            case START_OBJECT -> object();
            case START_ARRAY -> array();
            case VALUE_STRING -> NODES.textNode(parser.getText());
            case VALUE_NUMBER_INT -> switch (parser.getNumberType()) {
                case INT -> NODES.numberNode(parser.getIntValue());
                case LONG -> NODES.numberNode(parser.getLongValue());
                default -> NODES.numberNode(parser.getBigIntegerValue());
            };
            case VALUE_NUMBER_FLOAT -> NODES.numberNode(parser.getDecimalValue());
            case VALUE_TRUE -> NODES.booleanNode(true);
            case VALUE_FALSE -> NODES.booleanNode(false);
            case VALUE_NULL -> NODES.nullNode();
            default -> NODES.textNode(parser.getText());
        };
    }

    private ObjectNode object() throws IOException {
        ObjectNode obj = NODES.objectNode();
        for (JsonToken t = parser.nextToken(); t != JsonToken.END_OBJECT; t = parser.nextToken()) {
            String key = parser.currentName();
            int line = parser.currentTokenLocation().getLineNr();
            JsonNode v = value(parser.nextToken());
            if (obj.replace(key, v) != null) {
                duplicateLines.add("  line %d: key \"%s\" already set in map".formatted(line, key));
            }
        }
        return obj;
    }

    private ArrayNode array() throws IOException {
        ArrayNode arr = NODES.arrayNode();
        for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
            arr.add(value(t));
        }
        return arr;
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

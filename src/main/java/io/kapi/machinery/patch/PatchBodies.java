package io.kapi.machinery.patch;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.kapi.machinery.DecodeBudget;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses patch bodies, describing malformed JSON as Go's {@code encoding/json} does, within
 * {@link DecodeBudget#MAX_DEPTH} (a patch body is never larger decoded than on the wire).
 */
final class PatchBodies {

    private static final ObjectReader READER = JsonMapper.builder(JsonFactory.builder()
                    .recyclerPool(Json.BUFFERS)
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(DecodeBudget.MAX_DEPTH).build())
                    .build())
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build()
            .reader()
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .with(Json.NODES);
    private static final Pattern BAD_CHAR = Pattern.compile("(?:character \\('|token ')(.)");

    private PatchBodies() {
    }

    /**
     * The JSON tree of {@code body}, or the Go-style syntax error message ({@code unexpected end of JSON
     * input}, {@code invalid character 'x' looking for beginning of value}) when it is not JSON.
     */
    static Parsed parse(byte[] body) {
        if (body == null || body.length == 0) {
            return new Parsed(null, "unexpected end of JSON input");
        }
        try {
            JsonNode node = READER.readTree(body);
            if (node == null || node.isMissingNode()) {
                return new Parsed(null, "unexpected end of JSON input");
            }
            return new Parsed(node, null);
        } catch (StreamConstraintsException e) {
            return new Parsed(null, "exceeded max depth of " + DecodeBudget.MAX_DEPTH);
        } catch (JsonEOFException e) {
            return new Parsed(null, "unexpected end of JSON input");
        } catch (JsonProcessingException e) {
            return new Parsed(null, goSyntaxError(e));
        } catch (IOException e) {
            return new Parsed(null, e.getMessage());
        }
    }

    private static String goSyntaxError(JsonProcessingException e) {
        String original = e.getOriginalMessage();
        Matcher m = BAD_CHAR.matcher(original == null ? "" : original);
        return m.find()
                ? "invalid character '" + m.group(1) + "' looking for beginning of value"
                : "invalid character in JSON input: " + original;
    }

    /** A parsed body: exactly one of {@code node} and {@code error} is set. */
    record Parsed(JsonNode node, String error) {
        Optional<String> failure() {
            return Optional.ofNullable(error);
        }
    }
}

package io.kapi.endpoint.codec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.kapi.endpoint.CpuShare;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.machinery.protobuf.ProtobufCodec;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes a response body in the negotiated format, the way kube-apiserver's serializers do: compact JSON
 * ending in a newline (Go's {@code json.Encoder}), two-space indented JSON without a final newline for
 * {@code pretty} (Go's {@code json.MarshalIndent}), and YAML with
 * map keys sorted (Go's {@code sigs.k8s.io/yaml}), block sequences at the key's indentation, and strings that
 * would read as other types quoted. The conversion to Table or PartialObjectMetadata is the caller's job:
 * this class only serializes.
 */
public final class ResponseEncoder {

    private static final ObjectWriter COMPACT = Json.MAPPER.writer();
    private static final ObjectWriter PRETTY = Json.MAPPER.writer(new DefaultPrettyPrinter()
            .withObjectIndenter(new DefaultIndenter("  ", "\n"))
            .withArrayIndenter(new DefaultIndenter("  ", "\n"))
            .withSeparators(Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                    .withObjectEmptySeparator("")
                    .withArrayEmptySeparator("")));
    /** Made on the first YAML response (its classes are not loaded for a JSON one). */
    private static final class Yaml {
        static final ObjectMapper MAPPER = YAMLMapper.builder(Json.yamlFactory()
                        .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                        .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
                        .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
                        .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
                        .build())
                .build();
    }

    private ResponseEncoder() {
    }

    /**
     * The bytes of {@code body} in {@code target}'s format; send them with {@link #contentType}. In protobuf
     * the body's {@code apiVersion} and {@code kind} name its message: a body whose kind has no protobuf form
     * (see {@link #contentType(JsonNode, ResponseTarget)}) is written as JSON.
     */
    public static byte[] encode(JsonNode body, ResponseTarget target) {
        try {
            return switch (target.format()) {
                case JSON -> target.pretty() ? PRETTY.writeValueAsBytes(body) : withNewline(COMPACT.writeValueAsBytes(body));
                case YAML -> Yaml.MAPPER.writeValueAsBytes(sorted(body));
                case PROTOBUF -> {
                    GroupVersionKind gvk = kindOf(body);
                    yield ProtobufCodec.supports(gvk) ? ProtobufCodec.encode(body, gvk)
                            : withNewline(COMPACT.writeValueAsBytes(body));
                }
            };
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes a list as {@link #encode} writes {@code envelope} with {@code items} in its {@code items}
     * array (the same bytes), one item at a time, without building the array or the output in memory.
     * Items' {@code omit} fields (a built-in list's items carry no {@code apiVersion} and {@code kind}) are
     * left out; the items are not modified. Compact JSON only (pretty output is for people, and small).
     *
     * In protobuf, the envelope's {@code kind} names the list's message, items have no place for
     * {@code apiVersion} and {@code kind} whatever {@code omit} says, and {@code encodings} keeps (and
     * gives back) each item's message; JSON ignores it.
     *
     * @param envelope the list without items: {@code kind}, {@code apiVersion}, {@code metadata}
     */
    public static void writeList(ObjectNode envelope, List<ObjectNode> items, Set<String> omit, ResponseTarget target,
                                 OutputStream out, ProtobufCodec.ItemEncodings encodings) throws IOException {
        if (target.format() == Format.PROTOBUF) {
            ProtobufCodec.writeList(envelope, items, kindOf(envelope), out, CpuShare::step, encodings);
            return;
        }
        if (target.format() != Format.JSON || target.pretty()) {
            throw new IllegalArgumentException("lists are streamed as compact JSON or protobuf only, not " + target);
        }
        SerializerProvider provider = Json.MAPPER.getSerializerProviderInstance();
        try (JsonGenerator g = Json.MAPPER.getFactory().createGenerator(out)) {
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.writeStartObject();
            for (Map.Entry<String, JsonNode> field : envelope.properties()) {
                if (!field.getKey().equals("items")) {
                    g.writeFieldName(field.getKey());
                    field.getValue().serialize(g, provider);
                }
            }
            g.writeArrayFieldStart("items");
            int index = 0;
            for (ObjectNode item : items) {
                CpuShare.step(index++);
                g.writeStartObject();
                for (Map.Entry<String, JsonNode> field : item.properties()) {
                    if (!omit.contains(field.getKey())) {
                        g.writeFieldName(field.getKey());
                        field.getValue().serialize(g, provider);
                    }
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        out.write('\n');
    }

    /**
     * The Content-Type header of a response to {@code target}: {@code application/json},
     * {@code application/yaml} or {@code application/vnd.kubernetes.protobuf}.
     */
    public static String contentType(ResponseTarget target) {
        return target.format().mediaType();
    }

    /** The Content-Type of {@code body} {@link #encode encoded} for {@code target}: JSON for a kind protobuf lacks. */
    public static String contentType(JsonNode body, ResponseTarget target) {
        if (target.format() == Format.PROTOBUF && !ProtobufCodec.supports(kindOf(body))) {
            return Format.JSON.mediaType();
        }
        return contentType(target);
    }

    /** The kind a body names with its {@code apiVersion} and {@code kind}. */
    public static GroupVersionKind kindOf(JsonNode body) {
        String apiVersion = body.path("apiVersion").asText("");
        int slash = apiVersion.indexOf('/');
        return new GroupVersionKind(slash < 0 ? "" : apiVersion.substring(0, slash),
                apiVersion.substring(slash + 1), body.path("kind").asText(""));
    }

    private static byte[] withNewline(byte[] json) {
        byte[] out = new byte[json.length + 1];
        System.arraycopy(json, 0, out, 0, json.length);
        out[json.length] = '\n';
        return out;
    }

    /**
     * A copy with object keys in byte order, as Go's YAML marshaller writes maps; made with an explicit stack,
     * as a body may nest as deep as a request may.
     */
    static JsonNode sorted(JsonNode node) {
        if (!node.isContainerNode()) {
            return node;
        }
        JsonNode top = emptyLike(node);
        java.util.ArrayDeque<Object[]> open = new java.util.ArrayDeque<>(); // {remaining children, copy}
        open.push(new Object[] {children(node), top});
        while (!open.isEmpty()) {
            Object[] frame = open.peek();
            @SuppressWarnings("unchecked")
            java.util.Iterator<Map.Entry<String, JsonNode>> it = (java.util.Iterator<Map.Entry<String, JsonNode>>) frame[0];
            if (!it.hasNext()) {
                open.pop();
                continue;
            }
            Map.Entry<String, JsonNode> child = it.next();
            JsonNode value = child.getValue();
            JsonNode copy = value.isContainerNode() ? emptyLike(value) : value;
            if (frame[1] instanceof ObjectNode obj) {
                obj.set(child.getKey(), copy);
            } else {
                ((ArrayNode) frame[1]).add(copy);
            }
            if (value.isContainerNode()) {
                open.push(new Object[] {children(value), copy});
            }
        }
        return top;
    }

    private static JsonNode emptyLike(JsonNode container) {
        return container.isObject() ? Json.NODES.objectNode() : Json.NODES.arrayNode(container.size());
    }

    /** An object's fields sorted by key, or an array's elements (with null keys), in order. */
    private static java.util.Iterator<Map.Entry<String, JsonNode>> children(JsonNode container) {
        List<Map.Entry<String, JsonNode>> entries = new ArrayList<>(container.size());
        if (container instanceof ObjectNode obj) {
            entries.addAll(obj.properties());
            entries.sort(Map.Entry.comparingByKey());
        } else {
            container.forEach(e -> entries.add(new java.util.AbstractMap.SimpleImmutableEntry<>(null, e)));
        }
        return entries.iterator();
    }

}

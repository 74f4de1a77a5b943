package io.kapi.machinery;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

/** The shared, thread-safe JSON and YAML mappers. Objects are Jackson trees, never bound classes. */
public final class Json {

    /** JSON: big numbers kept exact, duplicate keys allowed here (field validation detects them). */
    public static final ObjectMapper MAPPER = JsonMapper.builder(new JsonFactory())
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
            .build();

    /** YAML, made on first use: a start reads no YAML, and the YAML parser's classes are not loaded for it. */
    public static ObjectMapper yaml() {
        return Yaml.MAPPER;
    }

    private static final class Yaml {
        static final ObjectMapper MAPPER = YAMLMapper.builder(YAMLFactory.builder()
                        .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                        .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
                        .build())
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .build();
    }

    public static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);

    /**
     * Reads JSON as {@link #MAPPER} does into trees whose objects keep their fields in
     * {@link CompactFields}: for trees that are kept (the watch cache's objects), at a fraction of the
     * memory. Their copies ({@code deepCopy}) are ordinary trees.
     */
    public static final ObjectReader COMPACT_READER = MAPPER.reader().with(new CompactNodes());

    /** Makes objects with {@link CompactFields}; everything else as the mapper's own factory. */
    private static final class CompactNodes extends JsonNodeFactory {
        @java.io.Serial
        private static final long serialVersionUID = 1L;

        @Override
        public ObjectNode objectNode() {
            return new ObjectNode(this, new CompactFields());
        }
    }

    private Json() {
    }

    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }
}

package io.kapi.machinery;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.core.util.RecyclerPool;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.kapi.machinery.tree.CompactFields;
import io.kapi.machinery.tree.StacklessNodes;

/**
 * The shared, thread-safe JSON and YAML mappers. Objects are Jackson trees, never bound classes, made of
 * {@link StacklessNodes}: copying, comparing, hashing and writing one takes no stack for its depth.
 *
 * <p>Depth: a request body may nest {@link DecodeBudget#MAX_DEPTH} levels, as Go's decoder allows; what the
 * server writes and reads back (a stored object with its managed fields, a watch event around an object, a
 * list of them) may nest a few levels more, so the mappers read and write up to {@link #MAX_DEPTH}.
 */
public final class Json {

    /** How deep the mappers read and write: twice a request's limit, for the envelopes around an object. */
    public static final int MAX_DEPTH = 2 * DecodeBudget.MAX_DEPTH;

    /**
     * Where the JSON parsers and generators take their buffers from, and give them back to: one pool for
     * the server. Jackson's default keeps a set per thread, and every request runs on a virtual thread of
     * its own, so each parse and each write made a new set (some 20 KB a request, and a soft reference for
     * the collector to process); from this pool they are reused. Bounded: at most 16 sets wait in it (beyond
     * that a set given back is dropped; a set keeps the last buffer of each use, at most 128 KB each), what
     * was not given back is made anew.
     */
    public static final RecyclerPool<BufferRecycler> BUFFERS = JsonRecyclerPools.newBoundedPool(16);

    /** Makes the containers of built trees; decimals keep their scale. */
    public static final JsonNodeFactory NODES = new StacklessNodes(true, null, null);

    private static final StacklessNodes READ_NODES = new StacklessNodes(false, null, null);
    private static final StacklessNodes COMPACT_NODES = new StacklessNodes(false, CompactFields::new, READ_NODES);

    /**
     * JSON: big numbers kept exact, duplicate keys allowed here (field validation detects them). Reads up to
     * {@link #MAX_DEPTH}; writes any depth (writing a tree takes no stack).
     */
    public static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .recyclerPool(BUFFERS)
                    .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
                    .streamWriteConstraints(StreamWriteConstraints.builder().maxNestingDepth(Integer.MAX_VALUE).build())
                    .build())
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
            .nodeFactory(READ_NODES)
            .build();

    static {
        for (JsonNodeFactory nodes : new JsonNodeFactory[] {NODES, READ_NODES, COMPACT_NODES}) {
            ((StacklessNodes) nodes).writers(MAPPER.writer(), MAPPER.writerWithDefaultPrettyPrinter());
        }
    }

    /** YAML, made on first use: a start reads no YAML, and the YAML parser's classes are not loaded for it. */
    public static ObjectMapper yaml() {
        return Yaml.MAPPER;
    }

    private static final class Yaml {
        static final ObjectMapper MAPPER = YAMLMapper.builder(yamlFactory()
                        .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                        .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
                        .build())
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .nodeFactory(READ_NODES)
                .build();
    }

    /** A YAML factory builder reading and writing up to {@link #MAX_DEPTH} levels. */
    public static com.fasterxml.jackson.dataformat.yaml.YAMLFactoryBuilder yamlFactory() {
        return YAMLFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
                .streamWriteConstraints(StreamWriteConstraints.builder().maxNestingDepth(MAX_DEPTH).build());
    }

    /**
     * Reads JSON as {@link #MAPPER} does into trees whose objects keep their fields in
     * {@link CompactFields}: for trees that are kept (the watch cache's objects), at a fraction of the
     * memory. Their copies ({@code deepCopy}) are ordinary trees.
     */
    public static final ObjectReader COMPACT_READER = MAPPER.reader().with(COMPACT_NODES);

    /** The nodes {@link #COMPACT_READER} makes, for trees that are kept but built some other way. */
    public static JsonNodeFactory compactNodes() {
        return COMPACT_NODES;
    }

    private Json() {
    }

    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }
}

package io.kapi.endpoint.codec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.Json;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * A JSON request body that an in-process caller (the API's loopback client) has as a tree already. Read
 * as a stream it is the tree's JSON, encoded on the first read; {@link RequestDecoder} takes the tree
 * instead, as the JSON's parse would have made it ({@link JsonTreeReader#copyOf}), which spares the
 * API's own writes (a start's few hundred) an encode and a parse each.
 */
public final class TreeBody extends InputStream {

    private final JsonNode tree;
    private ByteArrayInputStream encoded;

    /** @param tree the body; read (not changed) when the request is decoded, which copies it */
    public TreeBody(JsonNode tree) {
        this.tree = tree;
    }

    /** The tree as parsing its JSON would have made it, a copy of its own; null when only the bytes can tell. */
    JsonNode parsed() {
        return JsonTreeReader.copyOf(tree);
    }

    /** The JSON of the tree. */
    byte[] bytes() {
        try {
            return Json.MAPPER.writeValueAsBytes(tree);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private ByteArrayInputStream stream() {
        if (encoded == null) {
            encoded = new ByteArrayInputStream(bytes());
        }
        return encoded;
    }

    @Override
    public int read() {
        return stream().read();
    }

    @Override
    public int read(byte[] b, int off, int len) {
        return stream().read(b, off, len);
    }

    @Override
    public int available() {
        return stream().available();
    }
}

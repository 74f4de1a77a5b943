package io.kapi.endpoint.openapi;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * A minimal protocol-buffers (proto3) encoder: varints, strings, booleans and nested messages, the
 * few wire types the OpenAPI v2 protobuf document needs. Default values (empty strings, false) are
 * not written, as proto3 encoders do not write them.
 */
final class ProtoWriter {

    private static final int VARINT = 0;
    private static final int LENGTH_DELIMITED = 2;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    byte[] toByteArray() {
        return out.toByteArray();
    }

    ProtoWriter string(int field, String value) {
        if (value != null && !value.isEmpty()) {
            bytes(field, value.getBytes(StandardCharsets.UTF_8));
        }
        return this;
    }

    ProtoWriter bool(int field, boolean value) {
        if (value) {
            tag(field, VARINT);
            varint(1);
        }
        return this;
    }

    /** A nested message written by {@code body}; written even when empty (presence matters for oneofs). */
    ProtoWriter message(int field, Consumer<ProtoWriter> body) {
        ProtoWriter nested = new ProtoWriter();
        body.accept(nested);
        bytes(field, nested.toByteArray());
        return this;
    }

    private void bytes(int field, byte[] data) {
        tag(field, LENGTH_DELIMITED);
        varint(data.length);
        out.writeBytes(data);
    }

    private void tag(int field, int wireType) {
        varint(((long) field << 3) | wireType);
    }

    private void varint(long value) {
        while ((value & ~0x7FL) != 0) {
            out.write((int) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        out.write((int) value);
    }
}

package io.kapi.machinery.protobuf;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import java.util.Arrays;

/**
 * The stored-value decode as it was before {@link WireToJson}: the envelope's object parsed into a
 * {@code DynamicMessage}, then converted by {@link ProtoToJson}. Kept for the benchmark's side-by-side figure.
 */
public final class ParsedDecode {

    private static final ProtoToJson STORED = new ProtoToJson(Json.compactNodes(), Json.COMPACT_READER,
            RequiredFields.builtIn());

    private ParsedDecode() {
    }

    /** {@code value} ({@code k8s\0} and a {@code runtime.Unknown} of {@code gvk}) as a tree. */
    public static ObjectNode decodeStored(byte[] value, GroupVersionKind gvk) throws InvalidProtocolBufferException {
        Descriptor type = KindIndex.builtIn().find(gvk).orElseThrow();
        var unknown = io.kubernetes.client.proto.Runtime.Unknown.parseFrom(Arrays.copyOfRange(value, 4, value.length));
        ObjectNode tree = Json.compactNodes().objectNode();
        tree.put("apiVersion", gvk.apiVersion());
        tree.put("kind", gvk.kind());
        STORED.writeFields(DynamicMessage.parseFrom(type, unknown.getRaw()), tree);
        return tree;
    }
}

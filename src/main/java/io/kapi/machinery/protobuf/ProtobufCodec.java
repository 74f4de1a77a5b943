package io.kapi.machinery.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.WireFormat;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.DecodeBudget;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kubernetes.client.proto.Runtime;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * Kubernetes' protobuf wire format, {@code application/vnd.kubernetes.protobuf}, for the built-in kinds.
 *
 * <p>A body is the four bytes {@code k8s\0} followed by a {@code runtime.Unknown} message:
 * {@code typeMeta} ({@code apiVersion}, {@code kind}), {@code raw} (the object's own message),
 * {@code contentEncoding} and {@code contentType} (both empty). The object's message comes from
 * {@code io.kubernetes:client-java-proto}; its JSON form is the tree kube-apiserver would have read from
 * the equivalent JSON body (see {@link ProtoToJson} for zero values).
 *
 * <p>Custom resources have no protobuf form: kube-apiserver serves them as JSON even to clients that
 * prefer protobuf, so negotiation should offer this format only where {@link #supports} says so.
 * {@code meta.k8s.io/v1 Table} has no protobuf form either.
 */
public final class ProtobufCodec {

    /** The media type of this format. */
    public static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";

    /** The Content-Type of a watch response in this format. */
    public static final String WATCH_MEDIA_TYPE = MEDIA_TYPE + ";stream=watch";

    private static final byte[] PREFIX = {0x6b, 0x38, 0x73, 0x00};
    /** The name of kube-apiserver's scheme in "no kind is registered" errors. */
    private static final String SCHEME = "pkg/api/legacyscheme/scheme.go:30";

    private static final Descriptor UNKNOWN = Runtime.Unknown.getDescriptor();
    private static final Descriptor TYPE_META = Runtime.TypeMeta.getDescriptor();

    private ProtobufCodec() {
    }

    /** Whether {@code gvk} (a kind or its list) has a protobuf message. */
    public static boolean supports(GroupVersionKind gvk) {
        return KindIndex.builtIn().find(gvk).isPresent();
    }

    /**
     * Decodes a protobuf request body into the JSON tree of the object, {@code apiVersion} and {@code kind}
     * first, taken from the envelope (or from {@code expected} where the envelope leaves them empty, as
     * kube-apiserver defaults them). Whether they match the endpoint is the handler's check, as for JSON.
     *
     * @param expected the kind the endpoint serves; it defaults the envelope and words errors
     * @throws ApiException 400 BadRequest worded as kube-apiserver's: {@code the object provided is
     *         unrecognized (must be of type ConfigMap): provided data does not appear to be a protobuf
     *         message, expected prefix [107 56 115 0] (7b7d)} for a broken envelope, {@code ConfigMap in
     *         version "v1" cannot be handled as a ConfigMap: unexpected EOF} for a broken object, and
     *         {@code no kind "Foo" is registered for version "v1" ...} for a kind without a message
     */
    public static ObjectNode decode(byte[] body, GroupVersionKind expected) {
        Parsed envelope = envelope(body, expected);
        GroupVersionKind actual = withDefaults(envelope, expected);
        Descriptor type = KindIndex.builtIn().find(actual).orElseThrow(() -> cannotHandle(actual, expected,
                "no kind \"%s\" is registered for version \"%s\" in scheme \"%s\""
                        .formatted(actual.kind(), actual.apiVersion(), SCHEME)));
        ObjectNode tree = Json.object();
        tree.put("apiVersion", actual.apiVersion());
        tree.put("kind", actual.kind());
        try {
            tree.setAll(ProtoToJson.object(DynamicMessage.parseFrom(type, envelope.raw())));
        } catch (InvalidProtocolBufferException e) {
            throw cannotHandle(actual, expected, goError(e));
        } catch (IllegalArgumentException e) {
            throw cannotHandle(actual, expected, e.getMessage());
        }
        try {
            DecodeBudget.check(tree);
        } catch (DecodeBudget.Exceeded e) {
            throw cannotHandle(actual, expected, e.getMessage());
        }
        return tree;
    }

    /**
     * {@code object} as kube-apiserver holds it once decoded into its Go type: through its protobuf
     * message and back, so that it has what protobuf storage keeps of it (zero values Go leaves out and
     * empty lists and maps gone, times in their canonical form) before fields are tracked and it is
     * stored. In place: the object's keys are replaced.
     *
     * @throws IllegalArgumentException as {@link #encode}
     */
    public static void normalize(ObjectNode object, GroupVersionKind gvk) {
        Descriptor type = message(gvk);
        TreeWriter writer = new TreeWriter();
        int length = writer.write(object, MessagePlan.of(type));
        try {
            ObjectNode normal = Json.object();
            normal.put("apiVersion", gvk.apiVersion());
            normal.put("kind", gvk.kind());
            NORMAL.writeFields(type, CodedInputStream.newInstance(writer.buffer(), 0, length), normal);
            object.removeAll();
            object.setAll(normal);
        } catch (IOException e) {
            throw new IllegalStateException("writing to an array", e);
        }
    }

    /** Trees of ordinary nodes, zero values kept where Go writes them, read straight off the wire. */
    private static final WireToJson NORMAL = new WireToJson(Json.NODES, Json.MAPPER.reader(),
            RequiredFields.builtIn());

    /** Whether {@code value} begins with this format's {@code k8s\0} prefix. */
    public static boolean hasPrefix(byte[] value) {
        return value.length >= PREFIX.length && Arrays.equals(value, 0, PREFIX.length, PREFIX, 0, PREFIX.length);
    }

    /**
     * Decodes a value kept in storage, as kube-apiserver's storage codec reads it: the envelope's
     * {@code typeMeta} says the kind (its {@code apiVersion} and {@code kind} come first in the tree), and
     * the tree is made of {@link Json#compactNodes() compact} nodes, as the watch cache keeps them. No
     * request bounds apply: the store holds only what a write accepted.
     *
     * @throws IllegalArgumentException if the value is not an envelope, names a kind without a message, has
     *         a {@code contentEncoding}, or its object does not parse
     */
    public static ObjectNode decodeStored(byte[] value) {
        return readStored(value).object();
    }

    /**
     * A stored value decoded as {@link #decodeStored} decodes it, and where its object's message lies in
     * it (null when the envelope has no {@code raw}), so that a protobuf response can be made from the
     * stored bytes ({@link StoredMessage#withResourceVersion}).
     *
     * @throws IllegalArgumentException as {@link #decodeStored}
     */
    public static Stored readStored(byte[] value) {
        if (!hasPrefix(value)) {
            throw new IllegalArgumentException("no protobuf prefix");
        }
        try {
            CodedInputStream in = CodedInputStream.newInstance(value, PREFIX.length, value.length - PREFIX.length);
            String apiVersion = "";
            String kind = "";
            int rawStart = -1;
            int rawLength = 0;
            for (int tag; (tag = in.readTag()) != 0; ) {
                switch (tag) {
                    case 1 << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED -> {
                        int limit = in.pushLimit(in.readRawVarint32());
                        for (int t; (t = in.readTag()) != 0; ) {
                            switch (t) {
                                case 1 << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED -> apiVersion = in.readStringRequireUtf8();
                                case 2 << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED -> kind = in.readStringRequireUtf8();
                                default -> in.skipField(t);
                            }
                        }
                        in.popLimit(limit);
                    }
                    case 2 << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED -> {
                        rawLength = in.readRawVarint32();
                        rawStart = PREFIX.length + in.getTotalBytesRead();
                        in.skipRawBytes(rawLength);
                    }
                    case 3 << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED -> {
                        if (!in.readStringRequireUtf8().isEmpty()) {
                            throw new IllegalArgumentException("a content encoding is not supported");
                        }
                    }
                    default -> in.skipField(tag);
                }
            }
            int slash = apiVersion.indexOf('/');
            GroupVersionKind gvk = new GroupVersionKind(slash < 0 ? "" : apiVersion.substring(0, slash),
                    apiVersion.substring(slash + 1), kind);
            Descriptor type = KindIndex.builtIn().find(gvk)
                    .orElseThrow(() -> new IllegalArgumentException("no protobuf message for " + gvk));
            ObjectNode tree = Json.compactNodes().objectNode();
            tree.put("apiVersion", apiVersion);
            tree.put("kind", kind);
            if (rawStart < 0) {
                STORED.writeFields(DynamicMessage.getDefaultInstance(type), tree);
                return new Stored(tree, null);
            }
            STORED_WIRE.writeFields(type, CodedInputStream.newInstance(value, rawStart, rawLength), tree);
            return new Stored(tree, new StoredMessage(value, rawStart, rawLength, type));
        } catch (IOException e) {
            throw new IllegalArgumentException(goError(new InvalidProtocolBufferException(e.getMessage())), e);
        }
    }

    /**
     * A stored value read: its object, and its object's message in place (or null).
     *
     * @param object the decoded tree, as {@link #decodeStored} gives it
     * @param message the object's message in the stored bytes, or null
     */
    public record Stored(ObjectNode object, StoredMessage message) {
    }

    /**
     * The bytes {@link #encode} writes for an object of {@code gvk} whose message is {@code message}:
     * the prefix and the envelope around it.
     */
    public static byte[] wrap(GroupVersionKind gvk, byte[] message) {
        byte[] out = new byte[PREFIX.length + Envelope.size(gvk, message.length)];
        CodedOutputStream cos = CodedOutputStream.newInstance(out);
        try {
            cos.writeRawBytes(PREFIX);
            Envelope.writeHead(gvk, message.length, cos);
            cos.writeRawBytes(message);
            Envelope.writeTail(cos);
            cos.checkNoSpaceLeft();
        } catch (IOException e) {
            throw new IllegalStateException("writing to an array", e);
        }
        return out;
    }

    /** {@code object}'s message as {@link #encode} writes it inside the envelope. */
    public static byte[] encodeMessage(JsonNode object, GroupVersionKind gvk) {
        return new TreeWriter().message(object, MessagePlan.of(message(gvk)));
    }

    /**
     * {@code message}, an object's message of {@code gvk} as {@link #encodeMessage} or a stored value gives it,
     * with its {@code metadata.resourceVersion} replaced by {@code resourceVersion} as
     * {@link StoredMessage#withResourceVersion} does; null where that cannot be done.
     */
    public static byte[] withResourceVersion(GroupVersionKind gvk, byte[] message, String resourceVersion) {
        return new StoredMessage(message, 0, message.length, message(gvk)).withResourceVersion(resourceVersion);
    }

    /** The full name of {@code gvk}'s message (see {@link ItemEncodings}), or null where it has none. */
    public static String messageName(GroupVersionKind gvk) {
        return KindIndex.builtIn().find(gvk).map(Descriptor::getFullName).orElse(null);
    }

    /**
     * Stored objects become trees of compact nodes, their embedded raw JSON too; a zero value is kept where
     * Go writes it (a pointer's, or a field without {@code omitempty}), as kube serves what it stored.
     */
    private static final ProtoToJson STORED = new ProtoToJson(Json.compactNodes(), Json.COMPACT_READER,
            RequiredFields.builtIn());
    /** The same trees read straight off the wire (no parsed message in between), for stored values. */
    private static final WireToJson STORED_WIRE = new WireToJson(Json.compactNodes(), Json.COMPACT_READER,
            RequiredFields.builtIn());

    /**
     * Encodes {@code object} as kube-apiserver writes {@code gvk} in protobuf: the envelope with
     * {@code typeMeta} from {@code gvk} and the object's message as {@code raw}. Use {@code ...List} kinds
     * for lists and {@code v1 Status} for errors. The message is written straight from the tree in one walk
     * (see {@link TreeWriter}): keys the message does not know, such as {@code apiVersion}, are left out.
     *
     * @throws IllegalArgumentException if {@code gvk} is not {@link #supports supported} or a field cannot
     *         be converted (such as a time that is not RFC 3339)
     */
    public static byte[] encode(JsonNode object, GroupVersionKind gvk) {
        MessagePlan plan = MessagePlan.of(message(gvk));
        TreeWriter writer = new TreeWriter();
        int raw = writer.write(object, plan);
        byte[] out = new byte[PREFIX.length + Envelope.size(gvk, raw)];
        CodedOutputStream cos = CodedOutputStream.newInstance(out);
        try {
            cos.writeRawBytes(PREFIX);
            Envelope.writeHead(gvk, raw, cos);
            cos.writeRawBytes(writer.buffer(), 0, raw);
            Envelope.writeTail(cos);
            cos.checkNoSpaceLeft();
        } catch (IOException e) {
            throw new IllegalStateException("writing to an array", e);
        }
        return out;
    }

    /**
     * Where a list's items keep their encodings from one response to the next: the shared objects of the
     * watch cache do, so that a repeated LIST copies bytes instead of encoding every item again.
     */
    @FunctionalInterface
    public interface ItemEncodings {
        /** Items that keep nothing: every list encodes them anew. */
        ItemEncodings NONE = (index, kind, encoder) -> encoder.get();

        /**
         * The message of item {@code index} as {@code kind} (without envelope), made by {@code encoder} if
         * the item has none yet.
         */
        byte[] get(int index, String kind, Supplier<byte[]> encoder);
    }

    /**
     * Writes a list as {@link #encode} writes {@code envelope} with {@code items} in its {@code items},
     * the same bytes, without building the list or its encoding: each item's message is made once in one
     * walk of its tree (or taken from {@code encodings}), measured, then written in turn to {@code out}
     * (which it flushes, and does not close). Without encodings kept, a first pass measures every item and
     * a second writes it, so that the list's encoding is never held whole.
     *
     * @param envelope the list without items: its {@code metadata} (other keys are left out)
     * @param items the items, each an object of the list's item kind ({@code apiVersion} and {@code kind}
     *     are left out, as the message has no place for them)
     * @param listKind the list's kind, such as {@code v1 PodList} or {@code meta.k8s.io/v1
     *     PartialObjectMetadataList}
     * @param eachItem told the index of each item before it is encoded or written (to yield the thread)
     * @param encodings where the items keep their messages, or {@link ItemEncodings#NONE}
     * @throws IllegalArgumentException as {@link #encode}, before anything is written
     */
    public static void writeList(JsonNode envelope, List<? extends JsonNode> items, GroupVersionKind listKind,
                                 OutputStream out, IntConsumer eachItem, ItemEncodings encodings) throws IOException {
        MessagePlan list = MessagePlan.of(message(listKind));
        MessagePlan.FieldPlan metadata = list.protoField("metadata");
        MessagePlan.FieldPlan itemsField = list.protoField("items");
        JsonNode meta = envelope.path("metadata");
        TreeEncoder encoder = new TreeEncoder();
        long raw = meta.isMissingNode() ? 0 : encoder.fieldSize(metadata, meta);
        byte[][] kept = encodings == ItemEncodings.NONE ? null : new byte[items.size()][];
        String itemKind = itemsField.descriptor.getMessageType().getFullName();
        TreeWriter writer = kept == null ? null : new TreeWriter();
        for (int i = 0; i < items.size(); i++) {
            if (kept == null) {
                raw += encoder.elementSize(itemsField, items.get(i));
            } else {
                eachItem.accept(i);
                JsonNode item = items.get(i);
                byte[] message = encodings.get(i, itemKind, () -> writer.message(item, itemsField.message()));
                kept[i] = message;
                raw += itemsField.tagSize + CodedOutputStream.computeByteArraySizeNoTag(message);
            }
        }
        if (raw > Integer.MAX_VALUE - 1024) {
            throw new IllegalArgumentException("a list of " + raw + " bytes is too large for protobuf");
        }
        CodedOutputStream cos = CodedOutputStream.newInstance(out, 64 * 1024);
        cos.writeRawBytes(PREFIX);
        Envelope.writeHead(listKind, (int) raw, cos);
        if (!meta.isMissingNode()) {
            encoder.writeField(metadata, meta, cos);
        }
        if (kept != null) {
            for (byte[] message : kept) {
                cos.writeUInt32NoTag(itemsField.tag);
                cos.writeUInt32NoTag(message.length);
                cos.writeRawBytes(message);
            }
        } else {
            cos.flush();
            writeMeasured(items, itemsField, encoder, out, eachItem);
        }
        Envelope.writeTail(cos);
        cos.flush();
    }

    /** The second pass of an uncached list: each item through an array encoder, then to {@code out}. */
    private static void writeMeasured(List<? extends JsonNode> items, MessagePlan.FieldPlan itemsField,
                                      TreeEncoder encoder, OutputStream out, IntConsumer eachItem) throws IOException {
        byte[] scratch = new byte[8192];
        int index = 0;
        for (JsonNode item : items) {
            eachItem.accept(index++);
            int size = encoder.nextSize();
            int element = itemsField.tagSize + CodedOutputStream.computeUInt32SizeNoTag(size) + size;
            if (element > scratch.length) {
                scratch = new byte[Math.max(element, scratch.length * 2)];
            }
            // an array encoder writes without checking for room at every field
            CodedOutputStream one = CodedOutputStream.newInstance(scratch, 0, element);
            encoder.writeElement(itemsField, item, one);
            one.checkNoSpaceLeft();
            out.write(scratch, 0, element);
        }
    }

    /**
     * One frame of a protobuf watch stream, as kube-apiserver writes it: a 4-byte big-endian length, then
     * a {@code metav1.WatchEvent} message without prefix or envelope whose {@code object.raw} is the
     * object {@link #encode encoded} with both (for {@code ERROR} events, a {@code v1 Status}).
     *
     * @param type {@code ADDED}, {@code MODIFIED}, {@code DELETED}, {@code BOOKMARK} or {@code ERROR}
     * @throws IllegalArgumentException as {@link #encode}
     */
    public static byte[] encodeWatchEvent(String type, JsonNode object, GroupVersionKind gvk) {
        return watchFrame(type, encode(object, gvk));
    }

    /**
     * The watch frame of an object already {@link #encode encoded}: the frame's {@code WatchEvent}
     * ({@code type} = 1, {@code object} = 2, a {@code RawExtension} whose {@code raw} = 1 is
     * {@code encoded}) after its length.
     */
    public static byte[] watchFrame(String type, byte[] encoded) {
        int object = 1 + CodedOutputStream.computeByteArraySizeNoTag(encoded);
        int event = 1 + CodedOutputStream.computeStringSizeNoTag(type) + 1
                + CodedOutputStream.computeUInt32SizeNoTag(object) + object;
        byte[] out = new byte[4 + event];
        CodedOutputStream cos = CodedOutputStream.newInstance(out);
        try {
            cos.writeRawBytes(new byte[] {(byte) (event >>> 24), (byte) (event >>> 16), (byte) (event >>> 8), (byte) event});
            cos.writeString(1, type);
            cos.writeUInt32NoTag(2 << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED);
            cos.writeUInt32NoTag(object);
            cos.writeByteArray(1, encoded);
            cos.checkNoSpaceLeft();
        } catch (IOException e) {
            throw new IllegalStateException("writing to an array", e);
        }
        return out;
    }

    private static Descriptor message(GroupVersionKind gvk) {
        return KindIndex.builtIn().find(gvk)
                .orElseThrow(() -> new IllegalArgumentException("no protobuf message for " + gvk));
    }

    /**
     * The {@code runtime.Unknown} around a message: {@code typeMeta} = 1 ({@code apiVersion} = 1,
     * {@code kind} = 2), {@code raw} = 2, and empty {@code contentEncoding} = 3 and {@code contentType} = 4,
     * which kube-apiserver writes too.
     */
    private static final class Envelope {

        private static final int TAIL = 4;

        static int size(GroupVersionKind gvk, int raw) {
            int typeMeta = typeMetaSize(gvk);
            return 1 + CodedOutputStream.computeUInt32SizeNoTag(typeMeta) + typeMeta
                    + 1 + CodedOutputStream.computeUInt32SizeNoTag(raw) + raw + TAIL;
        }

        static void writeHead(GroupVersionKind gvk, int raw, CodedOutputStream out) throws IOException {
            out.writeUInt32NoTag(1 << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED);
            out.writeUInt32NoTag(typeMetaSize(gvk));
            out.writeString(1, gvk.apiVersion());
            out.writeString(2, gvk.kind());
            out.writeUInt32NoTag(2 << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED);
            out.writeUInt32NoTag(raw);
        }

        static void writeTail(CodedOutputStream out) throws IOException {
            out.writeString(3, "");
            out.writeString(4, "");
        }

        private static int typeMetaSize(GroupVersionKind gvk) {
            return 1 + CodedOutputStream.computeStringSizeNoTag(gvk.apiVersion())
                    + 1 + CodedOutputStream.computeStringSizeNoTag(gvk.kind());
        }
    }

    /**
     * Parses the envelope. Through {@link DynamicMessage}, not the generated {@code Runtime.Unknown}:
     * client-java-proto's generated parsers predate protobuf 22 and protobuf-java 4 warns about (and
     * guards against) them on every class's first parse.
     */
    private static Parsed envelope(byte[] body, GroupVersionKind expected) {
        if (body.length == 0) {
            throw unrecognized(expected, "empty data", body);
        }
        if (body.length < PREFIX.length || !Arrays.equals(body, 0, PREFIX.length, PREFIX, 0, PREFIX.length)) {
            throw unrecognized(expected,
                    "provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]", body);
        }
        if (body.length == PREFIX.length) {
            throw unrecognized(expected, "empty body", body);
        }
        try {
            DynamicMessage unknown = DynamicMessage.parseFrom(UNKNOWN,
                    ByteString.copyFrom(body, PREFIX.length, body.length - PREFIX.length));
            Message typeMeta = (Message) unknown.getField(UNKNOWN.findFieldByName("typeMeta"));
            return new Parsed(
                    (String) typeMeta.getField(TYPE_META.findFieldByName("apiVersion")),
                    (String) typeMeta.getField(TYPE_META.findFieldByName("kind")),
                    (ByteString) unknown.getField(UNKNOWN.findFieldByName("raw")));
        } catch (InvalidProtocolBufferException e) {
            throw unrecognized(expected, goError(e), body);
        }
    }

    /** The parts of {@code runtime.Unknown} that decoding uses. */
    private record Parsed(String apiVersion, String kind, ByteString raw) {
    }

    /** kube-apiserver's {@code copyKindDefaults}: an empty kind or version comes from the endpoint. */
    private static GroupVersionKind withDefaults(Parsed envelope, GroupVersionKind expected) {
        String apiVersion = envelope.apiVersion();
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        String version = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
        if (version.isEmpty()) {
            group = expected.group();
            version = expected.version();
        }
        String kind = envelope.kind().isEmpty() ? expected.kind() : envelope.kind();
        return new GroupVersionKind(group, version, kind);
    }

    /** The gist of gogo-protobuf's error for the same input. */
    private static String goError(InvalidProtocolBufferException e) {
        String m = Optional.ofNullable(e.getMessage()).orElse("");
        if (m.contains("truncated") || m.contains("ended unexpectedly")) {
            return "unexpected EOF";
        }
        return "proto: " + m;
    }

    private static ApiException unrecognized(GroupVersionKind expected, String detail, byte[] data) {
        return ApiException.badRequest("the object provided is unrecognized (must be of type %s): %s (%s)"
                .formatted(expected.kind(), detail, summarize(data)));
    }

    private static ApiException cannotHandle(GroupVersionKind actual, GroupVersionKind expected, String detail) {
        return ApiException.badRequest("%s in version \"%s\" cannot be handled as a %s: %s"
                .formatted(actual.kind(), actual.version(), expected.kind(), detail));
    }

    /** kube-apiserver's {@code summarizeData}: the first 30 bytes in hex (protobuf is never JSON). */
    private static String summarize(byte[] data) {
        if (data.length == 0) {
            return "<empty>";
        }
        int n = Math.min(30, data.length);
        String head = data[0] == '{' ? new String(data, 0, n, java.nio.charset.StandardCharsets.UTF_8)
                : HexFormat.of().formatHex(data, 0, n);
        return data.length > 30 ? head + " ..." : head;
    }
}

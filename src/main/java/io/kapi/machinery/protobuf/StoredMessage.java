package io.kapi.machinery.protobuf;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import java.nio.charset.StandardCharsets;

/**
 * The object's message inside a stored protobuf value, read where it lies: what a protobuf response needs
 * of an object the watch cache decoded from that value. Storage leaves {@code metadata.resourceVersion}
 * out (reads restore it from the key's revision), so {@link #withResourceVersion} splices it into the
 * stored bytes instead of walking the decoded tree again: a copy of the value and a scan of its
 * metadata's field tags.
 *
 * @param value the stored value (after any transformer: {@code k8s\0} and a {@code runtime.Unknown})
 * @param start where the object's message ({@code Unknown.raw}) begins in {@code value}
 * @param length the message's length
 * @param type the message's type, named by the envelope's {@code typeMeta}
 */
public record StoredMessage(byte[] value, int start, int length, Descriptor type) {

    private static final String OBJECT_META = "k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta";
    private static final int RESOURCE_VERSION = 6;
    private static final int LENGTH_DELIMITED = 2;

    /** The message's full name, as {@link ProtobufCodec.ItemEncodings} names an item's kind. */
    public String messageName() {
        return type.getFullName();
    }

    /**
     * The message with {@code metadata.resourceVersion} set to {@code resourceVersion}: the stored fields
     * as they are, but any stored version, and the version last in the metadata, where the watch cache's
     * tree has it (reads add it after decoding) and so where {@link TreeWriter} writes it. Null where the
     * stored message has no single {@code metadata} or is not well formed, for the caller to encode the
     * tree instead.
     */
    public byte[] withResourceVersion(String resourceVersion) {
        FieldDescriptor metadata = type.findFieldByName("metadata");
        if (metadata == null || metadata.getType() != FieldDescriptor.Type.MESSAGE
                || !metadata.getMessageType().getFullName().equals(OBJECT_META)) {
            return null;
        }
        int end = start + length;
        int metaTag = -1;
        int metaLength = -1;
        int metaStart = -1;
        int metaEnd = -1;
        for (int at = start; at < end; ) {
            int tagAt = at;
            long tag = varint(at, end);
            if (tag < 0) {
                return null;
            }
            at = next(at, end);
            if ((int) (tag >>> 3) == metadata.getNumber()) {
                if (metaTag >= 0 || (tag & 7) != LENGTH_DELIMITED) {
                    return null;
                }
                metaLength = at;
                long size = varint(at, end);
                at = next(at, end);
                if (size < 0 || size > end - at) {
                    return null;
                }
                metaTag = tagAt;
                metaStart = at;
                metaEnd = at + (int) size;
                at = metaEnd;
            } else {
                at = skip(tag, at, end);
                if (at < 0) {
                    return null;
                }
            }
        }
        if (metaTag < 0) {
            return null;
        }
        // in the metadata: the stored version's field, if any, which the new one replaces
        int cut = metaEnd;
        int resume = metaEnd;
        for (int at = metaStart; at < metaEnd; ) {
            int fieldAt = at;
            long tag = varint(at, metaEnd);
            if (tag < 0) {
                return null;
            }
            at = skip(tag, next(at, metaEnd), metaEnd);
            if (at < 0) {
                return null;
            }
            if ((int) (tag >>> 3) == RESOURCE_VERSION) {
                if (cut != metaEnd) {
                    return null;
                }
                cut = fieldAt;
                resume = at;
            }
        }
        byte[] version = resourceVersion.getBytes(StandardCharsets.UTF_8);
        int field = 1 + varintSize(version.length) + version.length;
        int meta = (metaEnd - metaStart) - (resume - cut) + field;
        int tagLength = metaLength - metaTag;
        byte[] out = new byte[length - (metaEnd - metaTag) + tagLength + varintSize(meta) + meta];
        int o = copy(start, metaTag, out, 0);
        o = copy(metaTag, metaTag + tagLength, out, o);
        o = putVarint(out, o, meta);
        o = copy(metaStart, cut, out, o);
        o = copy(resume, metaEnd, out, o);
        out[o++] = (byte) (RESOURCE_VERSION << 3 | LENGTH_DELIMITED);
        o = putVarint(out, o, version.length);
        System.arraycopy(version, 0, out, o, version.length);
        o += version.length;
        copy(metaEnd, end, out, o);
        return out;
    }

    private int copy(int from, int to, byte[] out, int at) {
        System.arraycopy(value, from, out, at, to - from);
        return at + to - from;
    }

    /** The varint at {@code at}, or -1 where it runs past {@code end} or past 64 bits. */
    private long varint(int at, int end) {
        long result = 0;
        for (int shift = 0; shift < 64 && at < end; shift += 7) {
            byte b = value[at++];
            result |= (long) (b & 0x7f) << shift;
            if (b >= 0) {
                return result;
            }
        }
        return -1;
    }

    /** Where the varint at {@code at} ends (its validity checked by {@link #varint}). */
    private int next(int at, int end) {
        while (at < end && value[at] < 0) {
            at++;
        }
        return at + 1;
    }

    /** Where the field whose {@code tag} was read, its value at {@code at}, ends; -1 for a group or a bad length. */
    private int skip(long tag, int at, int end) {
        return switch ((int) (tag & 7)) {
            case 0 -> varint(at, end) < 0 ? -1 : next(at, end);
            case 1 -> at + 8 <= end ? at + 8 : -1;
            case 5 -> at + 4 <= end ? at + 4 : -1;
            case LENGTH_DELIMITED -> {
                long size = varint(at, end);
                int body = next(at, end);
                yield size < 0 || size > end - body ? -1 : body + (int) size;
            }
            default -> -1;
        };
    }

    private static int varintSize(int v) {
        int size = 1;
        while ((v & ~0x7f) != 0) {
            v >>>= 7;
            size++;
        }
        return size;
    }

    private static int putVarint(byte[] out, int at, int v) {
        while ((v & ~0x7f) != 0) {
            out[at++] = (byte) (v & 0x7f | 0x80);
            v >>>= 7;
        }
        out[at++] = (byte) v;
        return at;
    }
}

package io.kapi.encryption;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The protobuf messages of kube's KMS v2: the plugin API ({@code k8s.io/kms/apis/v2/api.proto}, package
 * {@code v2}) and the stored {@code EncryptedObject} ({@code kmsv2/v2/api.proto}), encoded field by field:
 * a few messages of scalars, maps of bytes, no generated classes needed.
 */
final class KmsMessages {

    /** {@code EncryptedDEKSourceType}: 0 an AES-GCM key, 1 a seed for HKDF-derived keys (kube's default since 1.29). */
    static final int AES_GCM_KEY = 0;
    static final int HKDF_SHA256_XNONCE_AES_GCM_SEED = 1;

    private KmsMessages() {
    }

    record StatusResponse(String version, String healthz, String keyId) {
    }

    record EncryptResponse(byte[] ciphertext, String keyId, Map<String, byte[]> annotations) {
    }

    /** What kube stores after {@code k8s:enc:kms:v2:<name>:}. */
    record EncryptedObject(byte[] encryptedData, String keyId, byte[] encryptedDekSource,
                           Map<String, byte[]> annotations, int dekSourceType) {
    }

    static byte[] encryptRequest(byte[] plaintext, String uid) {
        return write(out -> {
            bytes(out, 1, plaintext);
            string(out, 2, uid);
        });
    }

    static byte[] decryptRequest(byte[] ciphertext, String uid, String keyId, Map<String, byte[]> annotations) {
        return write(out -> {
            bytes(out, 1, ciphertext);
            string(out, 2, uid);
            string(out, 3, keyId);
            writeMap(out, 4, annotations);
        });
    }

    static byte[] encryptedObject(EncryptedObject o) {
        return write(out -> {
            bytes(out, 1, o.encryptedData());
            string(out, 2, o.keyId());
            bytes(out, 3, o.encryptedDekSource());
            writeMap(out, 4, o.annotations());
            if (o.dekSourceType() != 0) {
                out.writeEnum(5, o.dekSourceType());
            }
        });
    }

    static StatusResponse statusResponse(byte[] bytes) {
        Fields f = read(bytes);
        return new StatusResponse(f.string(1), f.string(2), f.string(3));
    }

    static EncryptResponse encryptResponse(byte[] bytes) {
        Fields f = read(bytes);
        return new EncryptResponse(f.bytes(1), f.string(2), f.map(3));
    }

    static byte[] decryptResponsePlaintext(byte[] bytes) {
        return read(bytes).bytes(1);
    }

    static EncryptedObject encryptedObject(byte[] bytes) {
        Fields f = read(bytes);
        return new EncryptedObject(f.bytes(1), f.string(2), f.bytes(3), f.map(4), (int) f.varint(5));
    }

    /** For plugins (the tests' own): the responses and the requests' fields. */
    static byte[] statusResponse(StatusResponse r) {
        return write(out -> {
            string(out, 1, r.version());
            string(out, 2, r.healthz());
            string(out, 3, r.keyId());
        });
    }

    static byte[] encryptResponse(EncryptResponse r) {
        return write(out -> {
            bytes(out, 1, r.ciphertext());
            string(out, 2, r.keyId());
            writeMap(out, 3, r.annotations());
        });
    }

    static byte[] decryptResponse(byte[] plaintext) {
        return write(out -> bytes(out, 1, plaintext));
    }

    static Fields read(byte[] bytes) {
        Fields fields = new Fields();
        try {
            CodedInputStream in = CodedInputStream.newInstance(bytes);
            for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
                int number = WireFormat.getTagFieldNumber(tag);
                switch (WireFormat.getTagWireType(tag)) {
                    case WireFormat.WIRETYPE_VARINT -> fields.varints.put(number, in.readUInt64());
                    case WireFormat.WIRETYPE_LENGTH_DELIMITED -> {
                        byte[] value = in.readByteArray();
                        fields.lengthDelimited.merge(number, new byte[][] {value}, KmsMessages::concat);
                    }
                    default -> in.skipField(tag);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("proto: cannot parse invalid wire-format data");
        }
        return fields;
    }

    /** The fields of one message by number; repeated ones (map entries) in order. */
    static final class Fields {
        private final Map<Integer, Long> varints = new TreeMap<>();
        private final Map<Integer, byte[][]> lengthDelimited = new TreeMap<>();

        byte[] bytes(int number) {
            byte[][] values = lengthDelimited.get(number);
            return values == null ? new byte[0] : values[values.length - 1];
        }

        String string(int number) {
            return new String(bytes(number), java.nio.charset.StandardCharsets.UTF_8);
        }

        long varint(int number) {
            return varints.getOrDefault(number, 0L);
        }

        Map<String, byte[]> map(int number) {
            Map<String, byte[]> map = new LinkedHashMap<>();
            for (byte[] entry : lengthDelimited.getOrDefault(number, new byte[0][])) {
                Fields e = read(entry);
                map.put(e.string(1), e.bytes(2));
            }
            return map;
        }
    }

    private static byte[][] concat(byte[][] a, byte[][] b) {
        byte[][] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static void writeMap(CodedOutputStream out, int number, Map<String, byte[]> map) throws IOException {
        for (var e : new TreeMap<>(map).entrySet()) {
            byte[] entry = write(o -> {
                string(o, 1, e.getKey());
                bytes(o, 2, e.getValue());
            });
            out.writeByteArray(number, entry);
        }
    }

    private interface Writer {
        void write(CodedOutputStream out) throws IOException;
    }

    /** proto3: empty strings and bytes are left out, as Go's marshaller leaves them out. */
    private static byte[] write(Writer writer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        try {
            writer.write(out);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static void bytes(CodedOutputStream out, int number, byte[] value) throws IOException {
        if (value.length > 0) {
            out.writeByteArray(number, value);
        }
    }

    private static void string(CodedOutputStream out, int number, String value) throws IOException {
        if (!value.isEmpty()) {
            out.writeString(number, value);
        }
    }
}

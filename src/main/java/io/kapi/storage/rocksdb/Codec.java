package io.kapi.storage.rocksdb;

import io.kapi.storage.KeyValue;
import io.kapi.storage.WatchEvent;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Byte layouts of the RocksDB backend.
 *
 * <ul>
 * <li>current value ({@code kv} column family, key = UTF-8 key):
 *     {@code createRevision:8 modRevision:8 value…}</li>
 * <li>log entry ({@code log} column family, key = revision as 8 big-endian bytes, so byte order is
 *     revision order): {@code type:1 keyLength:4 key…} then for a put
 *     {@code createRevision:8 valueLength:4 value… hasPrevious:1 [previous]}, for a delete
 *     {@code previous}, where previous = {@code createRevision:8 modRevision:8 valueLength:4 value…}</li>
 * <li>meta (default column family): {@code revision} and {@code compacted} as 8 big-endian bytes</li>
 * </ul>
 */
final class Codec {
    private static final byte PUT = 0;
    private static final byte DELETE = 1;

    private Codec() {
    }

    static byte[] key(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] revision(long revision) {
        return ByteBuffer.allocate(8).putLong(revision).array();
    }

    static long revision(byte[] bytes) {
        return bytes == null ? 0 : ByteBuffer.wrap(bytes).getLong();
    }

    static byte[] encodeValue(KeyValue kv) {
        return ByteBuffer.allocate(16 + kv.value().length)
                .putLong(kv.createRevision()).putLong(kv.modRevision()).put(kv.value()).array();
    }

    static KeyValue decodeValue(String key, byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        long create = in.getLong();
        long mod = in.getLong();
        byte[] value = new byte[in.remaining()];
        in.get(value);
        return new KeyValue(key, value, create, mod);
    }

    static byte[] encodeEvent(WatchEvent event) {
        return switch (event) {
            case WatchEvent.Put put -> {
                byte[] key = key(put.current().key());
                KeyValue prev = put.previous();
                ByteBuffer out = ByteBuffer.allocate(1 + 4 + key.length + 8 + 4 + put.current().value().length
                        + 1 + (prev == null ? 0 : 20 + prev.value().length));
                out.put(PUT).putInt(key.length).put(key)
                        .putLong(put.current().createRevision()).putInt(put.current().value().length)
                        .put(put.current().value()).put((byte) (prev == null ? 0 : 1));
                if (prev != null) {
                    putPrevious(out, prev);
                }
                yield out.array();
            }
            case WatchEvent.Delete delete -> {
                byte[] key = key(delete.previous().key());
                ByteBuffer out = ByteBuffer.allocate(1 + 4 + key.length + 20 + delete.previous().value().length);
                out.put(DELETE).putInt(key.length).put(key);
                putPrevious(out, delete.previous());
                yield out.array();
            }
            case WatchEvent.Error error -> throw new IllegalArgumentException("not a write: " + error);
            case WatchEvent.Progress progress -> throw new IllegalArgumentException("not a write: " + progress);
        };
    }

    /** The key a log entry is about, without decoding the rest. */
    static String eventKey(byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes, 1, bytes.length - 1);
        int length = in.getInt();
        return new String(bytes, 5, length, StandardCharsets.UTF_8);
    }

    static WatchEvent decodeEvent(long revision, byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        byte type = in.get();
        byte[] keyBytes = new byte[in.getInt()];
        in.get(keyBytes);
        String key = new String(keyBytes, StandardCharsets.UTF_8);
        if (type == DELETE) {
            return new WatchEvent.Delete(getPrevious(in, key), revision);
        }
        long create = in.getLong();
        byte[] value = new byte[in.getInt()];
        in.get(value);
        KeyValue previous = in.get() == 1 ? getPrevious(in, key) : null;
        return new WatchEvent.Put(new KeyValue(key, value, create, revision), previous);
    }

    private static void putPrevious(ByteBuffer out, KeyValue prev) {
        out.putLong(prev.createRevision()).putLong(prev.modRevision()).putInt(prev.value().length).put(prev.value());
    }

    private static KeyValue getPrevious(ByteBuffer in, String key) {
        long create = in.getLong();
        long mod = in.getLong();
        byte[] value = new byte[in.getInt()];
        in.get(value);
        return new KeyValue(key, value, create, mod);
    }
}

package io.kapi.machinery.protobuf;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Object keys as {@link RawJson} writes them, in quotes and escaped as Jackson escapes, kept for the keys
 * written most; each with an empty object after it ({@code "key":{}}), the value of most keys of a
 * {@code fieldsV1} (its leaves), so that those are written in one copy, and other keys without the last two
 * bytes. The raw JSON inside protobuf is mostly managed fields' {@code fieldsV1}, and those
 * spell the same few hundred keys ({@code f:metadata}, {@code f:spec}, {@code .}, {@code k:{"type":"Ready"}},
 * ...) in every object of a cluster. Quoting each from its chars again was most of the CPU of writing a
 * pod's {@code fieldsV1} once its nodes are in cache (five times this table's lookup and copy), and a key
 * that needs escaping went through Jackson's encoder, which makes new arrays.
 *
 * <p>A table of {@link #SLOTS} entries indexed by the key's hash, shared by every thread: under 1 MiB
 * whatever the keys. A key seen once (the {@code k:{"uid":...}} of one owner) takes another's slot until
 * that one comes back; a lost slot, or a write lost to another thread's, only means quoting a key again.
 */
final class QuotedKeys {

    /** Enough for the field paths of the built-in kinds a cluster's objects spell, with room for collisions. */
    private static final int SLOTS = 4096;
    /** Keys quoted longer than this are written as they come, not kept: they are rare, and seldom repeated. */
    static final int MAX_KEPT = 128;

    /** A key and its quoted bytes: immutable, so a slot read without a lock sees a whole one or none. */
    private record Quoted(String key, byte[] json) {
    }

    private static final Quoted[] TABLE = new Quoted[SLOTS];

    private QuotedKeys() {
    }

    /** {@code "key":{}}, kept or made (see {@link #quote}); the caller must not modify the array. */
    static byte[] of(String key) {
        int slot = key.hashCode() & (SLOTS - 1);
        Quoted q = TABLE[slot];
        if (q != null && (q.key == key || q.key.equals(key))) {
            return q.json;
        }
        byte[] json = quote(key);
        if (json.length <= MAX_KEPT) {
            TABLE[slot] = new Quoted(key, json);
        }
        return json;
    }

    /**
     * {@code "key":{}} in UTF-8: printable ASCII without quote or backslash as is, anything else as Jackson's
     * {@link JsonStringEncoder} escapes it (the bytes {@code Json.MAPPER} writes).
     */
    private static byte[] quote(String key) {
        byte[] quoted = RawJson.escaped(key)
                ? JsonStringEncoder.getInstance().quoteAsUTF8(key)
                : key.getBytes(StandardCharsets.US_ASCII);
        byte[] json = new byte[quoted.length + 5];
        json[0] = '"';
        System.arraycopy(quoted, 0, json, 1, quoted.length);
        json[quoted.length + 1] = '"';
        json[quoted.length + 2] = ':';
        json[quoted.length + 3] = '{';
        json[quoted.length + 4] = '}';
        return json;
    }
}

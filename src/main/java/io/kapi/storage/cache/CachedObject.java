package io.kapi.storage.cache;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * One object as the cache keeps it: decoded once when its write is seen, then shared by every list,
 * get and watch that returns it. Nobody may change {@code object}: copy it first.
 *
 * @param key the storage key
 * @param object the object, with {@code metadata.resourceVersion} set to {@code revision}
 * @param revision the modRevision of the write that produced this version
 * @param labels the object's labels
 * @param fields the object's selectable field values ({@code metadata.name}, ...)
 * @param size the stored size in bytes, to bound the memory of the event window
 * @param encodings the object's wire encodings, made by the first response that needs one and reused by
 *     every other (a protobuf LIST copies its items' bytes): encode once, send many
 */
public record CachedObject(String key, ObjectNode object, long revision, Map<String, String> labels,
                           Map<String, String> fields, int size, SharedFrames encodings) {

    /** An object with no encoding made yet. */
    public CachedObject(String key, ObjectNode object, long revision, Map<String, String> labels,
                        Map<String, String> fields, int size) {
        this(key, object, revision, labels, fields, size, new SharedFrames());
    }
}

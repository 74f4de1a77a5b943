package io.kapi.storage;

/**
 * One stored key at one revision, as etcd's {@code mvccpb.KeyValue}.
 *
 * @param key the full key, e.g. {@code /registry/configmaps/default/c1}
 * @param value the stored bytes (Kapi stores JSON); never mutated by readers
 * @param createRevision the revision of the write that created the key
 * @param modRevision the revision of the last write to the key; the resourceVersion of the object
 */
public record KeyValue(String key, byte[] value, long createRevision, long modRevision) {
}

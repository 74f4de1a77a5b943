package io.kapi.storage.cache;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A write the cache applied, as kept in the event window and dispatched to watchers.
 *
 * @param revision the write's revision
 * @param key the storage key written
 * @param current the new version, or null for a delete
 * @param previous the version before the write, or null for a create
 */
record CacheEvent(long revision, String key, CachedObject current, CachedObject previous, SharedFrames frames,
                  ObjectNode[] deletedView) {

    CacheEvent(long revision, String key, CachedObject current, CachedObject previous) {
        this(revision, key, current, previous, current != null ? SharedFrames.ofEvent(current.encodings())
                : SharedFrames.ofDelete(revision, previous), new ObjectNode[1]);
    }

    /**
     * The previous version with its resourceVersion set to this event's revision: what a DELETED
     * event carries, as kube-apiserver sends it. Built once, shared.
     */
    ObjectNode deletedObject() {
        synchronized (deletedView) {
            if (deletedView[0] == null) {
                ObjectNode copy = previous.object().deepCopy();
                ((ObjectNode) copy.get("metadata")).put("resourceVersion", Long.toString(revision));
                deletedView[0] = copy;
            }
            return deletedView[0];
        }
    }

    int size() {
        return (current == null ? 0 : current.size()) + (previous == null ? 0 : previous.size());
    }
}

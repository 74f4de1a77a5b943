package io.kapi.testing;

import io.kapi.storage.KeySpace;

/**
 * The whole API state of a server at one moment, from {@link KapiServer#snapshot()}: every object of
 * every resource (and the server's own bookkeeping keys, such as service IP allocations), as stored.
 * Immutable and cheap (it shares the stored bytes). It may be restored into the server it came from
 * any number of times, or into another in-process server of this JVM.
 */
public final class KapiSnapshot {

    private final KeySpace keys;

    KapiSnapshot(KeySpace keys) {
        this.keys = keys;
    }

    KeySpace keys() {
        return keys;
    }

    /** The resourceVersion the snapshot was taken at. */
    public String resourceVersion() {
        return Long.toString(keys.revision());
    }

    /** How many stored keys (objects and bookkeeping) it holds. */
    public int size() {
        return keys.size();
    }

    @Override
    public String toString() {
        return "KapiSnapshot[resourceVersion=" + keys.revision() + ", keys=" + keys.size() + "]";
    }
}

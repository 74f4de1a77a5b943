package io.kapi.storage.cache;

/**
 * Whether one resource's cached objects have been read in protobuf since the server started. Until then
 * the cache keeps no stored value for them (a value kept for a client that never comes is memory and
 * collector time: in a JSON-only load, GETs took 11 % more CPU, see the README's "Protobuf"); from then on
 * each object it decodes keeps its stored value until a protobuf response makes the object's message from
 * it (see {@link SharedFrames#message}).
 */
public final class ProtobufReaders {

    private volatile boolean seen;

    /** Notes a protobuf read of one of the resource's objects. */
    void saw() {
        if (!seen) {
            seen = true;
        }
    }

    /** Whether any of the resource's objects was read in protobuf yet. */
    public boolean seen() {
        return seen;
    }
}

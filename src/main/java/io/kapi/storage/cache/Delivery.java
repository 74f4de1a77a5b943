package io.kapi.storage.cache;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.storage.StorageException;

/** What a {@link CacheWatch} hands its reader, in order. */
public sealed interface Delivery {

    /**
     * An object event.
     *
     * @param object the object to send; shared, never to be changed
     * @param frames encodings shared with every other watcher that sends the same event; for an initial
     *        event, which this watcher alone sends, frames that keep nothing but the object's protobuf
     *        message ({@link SharedFrames#ofInitialEvent}); null where nothing is shared
     */
    record Change(EventType type, ObjectNode object, long revision, SharedFrames frames) implements Delivery {
    }

    /** Every initial event was delivered; the state they describe is that of {@code revision}. */
    record InitialEventsEnd(long revision) implements Delivery {
    }

    /**
     * The watch cannot start or go on: the registry sends {@code cause} as an ERROR event, then ends
     * ({@link StorageException.Compacted}: too old resource version; {@link StorageException.ResourceVersionTooLarge}).
     */
    record Failure(StorageException cause) implements Delivery {
    }

    /** The watch ended (cut off for falling behind, or the cache re-listed): end the stream cleanly. */
    record End(String why) implements Delivery {
    }
}

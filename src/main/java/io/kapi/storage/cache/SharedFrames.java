package io.kapi.storage.cache;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The encodings of one event, computed by the first watcher that needs a given form (type and wire
 * format) and reused by every other: encode once, send many. Lives as long as the event.
 *
 * <p>The cache holds objects in their storage version. Watchers of a resource served in several
 * versions see the event through {@link #converted}: the object converted to their version once, by
 * whoever asks first, with frames of its own that every watcher of that version shares.
 */
public final class SharedFrames {

    private final ConcurrentHashMap<String, byte[]> frames = new ConcurrentHashMap<>(2);
    private volatile ConcurrentHashMap<String, Converted> views;

    /** The event's object as one served version has it, and that version's frames. */
    public record Converted(ObjectNode object, SharedFrames frames) {
    }

    /** The frame for {@code form}, encoding it with {@code encoder} if nobody did yet. */
    public byte[] get(String form, Supplier<byte[]> encoder) {
        byte[] frame = frames.get(form);
        return frame != null ? frame : frames.computeIfAbsent(form, f -> encoder.get());
    }

    /**
     * The event's object in another version, converting it with {@code converter} if nobody did yet.
     *
     * @param view names the version and which object of the event (the new one, or the deleted one)
     * @param converter makes the converted object; it must not change what it converts
     */
    public Converted converted(String view, Supplier<ObjectNode> converter) {
        ConcurrentHashMap<String, Converted> all = views;
        if (all == null) {
            synchronized (this) {
                all = views;
                if (all == null) {
                    all = new ConcurrentHashMap<>(2);
                    views = all;
                }
            }
        }
        Converted found = all.get(view);
        return found != null ? found : all.computeIfAbsent(view, v -> new Converted(converter.get(), new SharedFrames()));
    }
}

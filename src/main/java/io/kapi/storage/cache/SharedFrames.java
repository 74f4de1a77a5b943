package io.kapi.storage.cache;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The encodings of one event, computed by the first watcher that needs a given form (type and wire
 * format) and reused by every other: encode once, send many. Lives as long as the event.
 */
public final class SharedFrames {

    private final ConcurrentHashMap<String, byte[]> frames = new ConcurrentHashMap<>(2);

    /** The frame for {@code form}, encoding it with {@code encoder} if nobody did yet. */
    public byte[] get(String form, Supplier<byte[]> encoder) {
        byte[] frame = frames.get(form);
        return frame != null ? frame : frames.computeIfAbsent(form, f -> encoder.get());
    }
}

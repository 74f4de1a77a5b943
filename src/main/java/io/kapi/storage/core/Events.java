package io.kapi.storage.core;

import io.kapi.storage.KeyValue;
import io.kapi.storage.WatchEvent;

/** Small helpers over write events. */
public final class Events {

    private Events() {
    }

    /** The key a write event is about. */
    public static String key(WatchEvent event) {
        return switch (event) {
            case WatchEvent.Put put -> put.current().key();
            case WatchEvent.Delete delete -> delete.previous().key();
            case WatchEvent.Error error -> throw new IllegalArgumentException("not a write: " + error);
            case WatchEvent.Progress progress -> throw new IllegalArgumentException("not a write: " + progress);
        };
    }

    /** The key's value just before the event (null if the event created it). */
    public static KeyValue previous(WatchEvent event) {
        return switch (event) {
            case WatchEvent.Put put -> put.previous();
            case WatchEvent.Delete delete -> delete.previous();
            case WatchEvent.Error error -> throw new IllegalArgumentException("not a write: " + error);
            case WatchEvent.Progress progress -> throw new IllegalArgumentException("not a write: " + progress);
        };
    }

    /** The key's value just after the event (null if the event deleted it). */
    public static KeyValue current(WatchEvent event) {
        return switch (event) {
            case WatchEvent.Put put -> put.current();
            case WatchEvent.Delete ignored -> null;
            case WatchEvent.Error error -> throw new IllegalArgumentException("not a write: " + error);
            case WatchEvent.Progress progress -> throw new IllegalArgumentException("not a write: " + progress);
        };
    }
}

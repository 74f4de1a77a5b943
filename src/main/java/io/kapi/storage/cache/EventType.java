package io.kapi.storage.cache;

/** The watch event types a watcher sees, as {@code watch.EventType}. */
public enum EventType {
    ADDED, MODIFIED, DELETED
}

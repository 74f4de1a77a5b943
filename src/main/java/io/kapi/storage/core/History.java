package io.kapi.storage.core;

import io.kapi.storage.WatchEvent;
import java.util.function.Predicate;

/** A backend's log of past writes, one event per revision, as the {@link WatchHub} replays it. */
public interface History {

    /** The oldest revision a watch may start from; events after it are kept. */
    long compactedRevision();

    /**
     * Feeds the kept events with {@code after < revision <= upTo} to {@code sink} in revision order,
     * stopping early when the sink returns false. Events missing because of a concurrent compaction
     * are simply absent; the caller detects the gap.
     */
    void replay(long after, long upTo, Predicate<WatchEvent> sink);
}

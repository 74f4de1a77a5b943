package io.kapi.storage.cache;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import java.util.ArrayList;

/**
 * The recent events of one resource, oldest first, bounded in count and bytes; not thread-safe (the
 * cache's lock guards it). {@link #floor()} is the oldest revision a watch may resume from: every
 * event of the resource after it is still here.
 */
final class EventWindow {

    private final int maxEvents;
    private final long maxBytes;
    private final ArrayDeque<CacheEvent> events = new ArrayDeque<>();
    private long bytes;
    private long floor;

    EventWindow(int maxEvents, long maxBytes, long floor) {
        this.maxEvents = maxEvents;
        this.maxBytes = maxBytes;
        this.floor = floor;
    }

    void add(CacheEvent event) {
        events.addLast(event);
        bytes += event.size();
        while (events.size() > maxEvents || bytes > maxBytes && events.size() > 1) {
            CacheEvent dropped = events.removeFirst();
            bytes -= dropped.size();
            floor = dropped.revision();
        }
    }

    /** Forgets every event: history restarts at {@code revision} (after a re-list). */
    void reset(long revision) {
        events.clear();
        bytes = 0;
        floor = revision;
    }

    long floor() {
        return floor;
    }

    /** The events after {@code revision}, oldest first; the caller checked {@code revision >= floor()}. */
    List<CacheEvent> after(long revision) {
        ArrayList<CacheEvent> out = new ArrayList<>();
        Iterator<CacheEvent> newestFirst = events.descendingIterator();
        while (newestFirst.hasNext()) {
            CacheEvent e = newestFirst.next();
            if (e.revision() <= revision) {
                break;
            }
            out.add(e);
        }
        return out.reversed();
    }
}

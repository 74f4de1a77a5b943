package io.kapi.endpoint.watch;

import io.kapi.endpoint.FrameSink;
import io.kapi.machinery.Status;
import io.kapi.registry.StorageErrors;
import io.kapi.storage.cache.CacheWatch;
import io.kapi.storage.cache.Delivery;
import java.io.IOException;
import java.time.Duration;

/**
 * Writes one watch to its client: each event as one frame, flushed as soon as no further event is
 * ready (so every event reaches the client at once, and a burst goes out in few packets); a BOOKMARK
 * when one is due; the end when the timeout passes, the watch ends, or the client goes away.
 *
 * <p>The initial state of a watch that has one (from "" or "0", or {@code sendInitialEvents=true}) is
 * sent whole, with its {@code k8s.io/initial-events-end} bookmark, even when the timeout passes
 * meanwhile: it is already in memory, and cutting it would leave a streaming list without the bookmark
 * its client waits for. (A stall of a loaded machine between the ADDED frames and the bookmark of a
 * watch with {@code timeoutSeconds=2} did exactly that.) Live events are not sent after the timeout.
 */
final class WatchStream {

    private static final long BOOKMARK_BEFORE_TIMEOUT = Duration.ofSeconds(2).toNanos();

    private final CacheWatch watch;
    private final EventEncoder encoder;
    private final long timeoutNanos;
    private final Duration bookmarkInterval;
    private final boolean initialEventsEndBookmark;
    private final boolean initialState;
    private final Sent sent;

    /** Told the size of each object event's frame as it is sent. */
    @FunctionalInterface
    interface Sent {
        void event(int bytes);
    }

    /**
     * @param bookmarkInterval null when the client does not allow bookmarks
     * @param initialEventsEndBookmark whether the client asked for {@code sendInitialEvents=true}
     * @param initialState whether the watch starts with the current state, ended by
     *        {@link Delivery.InitialEventsEnd}
     */
    WatchStream(CacheWatch watch, EventEncoder encoder, Duration timeout, Duration bookmarkInterval,
                boolean initialEventsEndBookmark, boolean initialState, Sent sent) {
        this.sent = sent;
        this.initialEventsEndBookmark = initialEventsEndBookmark;
        this.initialState = initialState;
        this.watch = watch;
        this.encoder = encoder;
        this.timeoutNanos = timeout.toNanos();
        this.bookmarkInterval = bookmarkInterval;
    }

    void writeTo(FrameSink out) throws IOException {
        long start = System.nanoTime();
        long deadline = start + timeoutNanos;
        long nextBookmark = nextBookmark(start, deadline);
        long lastRevision = 0;
        boolean initialPending = initialState;
        try (watch) {
            out.flush();
            while (true) {
                long now = System.nanoTime();
                boolean expired = now - deadline >= 0;
                if (expired && !initialPending) {
                    return;
                }
                Delivery d = watch.poll(0);
                if (d == null) {
                    if (expired) {
                        return; // the initial state is always ready at once: nothing of it is left
                    }
                    out.flush();
                    long until = nextBookmark == Long.MIN_VALUE ? deadline : Math.min(deadline, nextBookmark);
                    d = watch.poll(Math.max(1, until - now));
                }
                if (d == null) {
                    if (nextBookmark != Long.MIN_VALUE && System.nanoTime() - nextBookmark >= 0) {
                        long revision = watch.bookmarkRevision();
                        if (revision > 0 && revision >= lastRevision) {
                            out.frame(encoder.bookmark(revision, false));
                            lastRevision = revision;
                        }
                        nextBookmark = nextBookmark(System.nanoTime(), deadline);
                    }
                    continue;
                }
                if (d instanceof Delivery.InitialEventsEnd) {
                    initialPending = false;
                }
                long written = send(d, out);
                if (written < 0) {
                    return;
                }
                lastRevision = Math.max(lastRevision, written);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Writes one delivery; returns the revision it carries (0 for none), or -1 when the stream ends. */
    private long send(Delivery d, FrameSink out) throws IOException {
        switch (d) {
            case Delivery.Change c -> {
                byte[] frame = encoder.object(c.type().name(), c.object(), c.frames());
                out.frame(frame);
                sent.event(frame.length);
                return c.revision();
            }
            case Delivery.InitialEventsEnd end -> {
                // kube-apiserver marks the end of the initial state only for a streaming list
                // (sendInitialEvents=true); a plain watch from "" just goes on with changes
                if (bookmarkInterval != null && initialEventsEndBookmark) {
                    out.frame(encoder.bookmark(end.revision(), true));
                }
                return end.revision();
            }
            case Delivery.Failure f -> {
                out.frame(encoder.error(Status.of(StorageErrors.forWatch(f.cause()))));
                out.flush();
                return -1;
            }
            case Delivery.End ignored -> {
                out.flush();
                return -1;
            }
        }
    }

    /** The next bookmark time: an interval from now, but at the latest 2 s before the deadline. */
    private long nextBookmark(long now, long deadline) {
        if (bookmarkInterval == null) {
            return Long.MIN_VALUE;
        }
        long next = now + bookmarkInterval.toNanos();
        long beforeTimeout = deadline - BOOKMARK_BEFORE_TIMEOUT;
        if (beforeTimeout - next < 0) {
            next = beforeTimeout;
        }
        return next - now <= 0 ? Long.MIN_VALUE : next;
    }
}

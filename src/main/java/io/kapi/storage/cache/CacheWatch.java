package io.kapi.storage.cache;

/**
 * A watch served from the cache. One reader thread polls it; the cache's dispatcher fills it without
 * ever blocking. Closing it unregisters it; closing twice is harmless.
 */
public interface CacheWatch extends AutoCloseable {

    /**
     * The next delivery, waiting at most {@code timeoutNanos}; null when none came in time. After an
     * {@link Delivery.End} or {@link Delivery.Failure}, every call returns an {@code End}.
     */
    Delivery poll(long timeoutNanos) throws InterruptedException;

    /**
     * A revision a BOOKMARK may carry now: every event of this watch up to it has been delivered by
     * {@link #poll}. -1 while events are pending.
     */
    long bookmarkRevision();

    @Override
    void close();

    /** A watch whose only delivery is {@code error} (sent as an ERROR event): a watch that cannot start. */
    static CacheWatch failed(io.kapi.storage.StorageException error) {
        return new CacheWatch() {
            private boolean sent;

            @Override
            public Delivery poll(long timeoutNanos) {
                if (sent) {
                    return new Delivery.End("failed");
                }
                sent = true;
                return new Delivery.Failure(error);
            }

            @Override
            public long bookmarkRevision() {
                return -1;
            }

            @Override
            public void close() {
            }
        };
    }
}

package io.kapi.registry;

import io.kapi.machinery.ApiException;
import io.kapi.storage.cache.CacheWatch;
import io.kapi.storage.cache.Delivery;
import io.kapi.storage.cache.EventType;
import io.kapi.storage.cache.SharedFrames;

/**
 * A watch of the (storage version) cache as one served version sees it: each object event carries the
 * object converted to that version, converted once per event and version and shared, with its frames,
 * by every watcher of the version ({@link SharedFrames#converted}); initial events, which no other
 * watcher sends, are converted for this watcher alone.
 */
final class ConvertedWatch implements CacheWatch {

    private static final System.Logger LOG = System.getLogger(ConvertedWatch.class.getName());

    private final CacheWatch watch;
    private final String currentView;
    private final String deletedView;
    private final ServedVersion served;

    ConvertedWatch(CacheWatch watch, String apiVersion, ServedVersion served) {
        this.watch = watch;
        this.currentView = apiVersion;
        this.deletedView = apiVersion + " deleted";
        this.served = served;
    }

    @Override
    public Delivery poll(long timeoutNanos) throws InterruptedException {
        Delivery d = watch.poll(timeoutNanos);
        if (!(d instanceof Delivery.Change c)) {
            return d;
        }
        try {
            return converted(c);
        } catch (ApiException e) {
            // kube-apiserver logs an event it cannot encode and ends the watch; the client lists again
            LOG.log(System.Logger.Level.WARNING, "watch ended: cannot convert an event to {0}: {1}", currentView,
                    e.getMessage());
            return new Delivery.End(e.getMessage());
        }
    }

    private Delivery converted(Delivery.Change c) {
        if (c.frames() == null) {
            return new Delivery.Change(c.type(), served.servedCopy(c.object()), c.revision(), null);
        }
        String view = c.type() == EventType.DELETED ? deletedView : currentView;
        SharedFrames.Converted converted = c.frames().converted(view, () -> served.servedCopy(c.object()));
        return new Delivery.Change(c.type(), converted.object(), c.revision(), converted.frames());
    }

    @Override
    public long bookmarkRevision() {
        return watch.bookmarkRevision();
    }

    @Override
    public void close() {
        watch.close();
    }
}

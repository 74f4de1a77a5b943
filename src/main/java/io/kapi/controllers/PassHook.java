package io.kapi.controllers;

import io.kapi.health.PostStartHook;
import io.kapi.informers.PassController;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.GroupVersionResource;
import java.time.Duration;
import java.util.List;

/**
 * A standalone controller made of one level-triggered pass ({@link #syncAll()}) over what it reads, run
 * by a {@link PassController} on the server's shared informers: its first pass runs in its post-start
 * hook, the next ones within milliseconds of a change of a watched resource, and every resync period
 * where kube's controller resyncs. A failed pass is retried with back-off.
 */
public abstract class PassHook implements PostStartHook, AutoCloseable {

    /** How soon after a change a pass runs (and so how far apart passes are under a flood of writes). */
    static final Duration SPACING = Duration.ofMillis(20);

    private final SharedInformers informers;
    private final PassController passes;

    /**
     * @param watched the resources whose changes ask for a pass
     * @param resync how often a pass runs anyway; null for never
     */
    protected PassHook(SharedInformers informers, List<GroupVersionResource> watched, Duration resync) {
        this.informers = informers;
        this.passes = new PassController(name(), SPACING, this::syncAll);
        watched.forEach(this::watch);
        if (resync != null) {
            passes.resyncEvery(resync);
        }
    }

    /** One pass; must be safe to run again after a failure. */
    public abstract void syncAll();

    /** Asks for a pass on every change of {@code resource} from now on (a resource found while passing). */
    protected final void watch(GroupVersionResource resource) {
        passes.watching(informers.informer(resource));
    }

    @Override
    public final void run() {
        syncAll();
        passes.startAfterPass();
    }

    @Override
    public final void close() {
        passes.close();
    }
}

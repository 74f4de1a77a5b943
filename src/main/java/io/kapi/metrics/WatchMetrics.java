package io.kapi.metrics;

/**
 * kube-apiserver's watch and watch-cache families (1.34's labels: {@code resource} where older releases had
 * {@code kind}): events sent to watchers and their sizes, watchers closed for not keeping up, and the watch
 * cache's events, initialisations, resource version and read waits.
 */
public final class WatchMetrics {

    private final CounterFamily events;
    private final HistogramFamily sizes;
    private final CounterFamily terminated;
    private final CounterFamily dispatched;
    private final CounterFamily received;
    private final CounterFamily initializations;
    private final GaugeFamily resourceVersion;
    private final HistogramFamily readWait;

    WatchMetrics(Metrics metrics) {
        events = metrics.counter(Definition.of("apiserver_watch_events_total", Stability.ALPHA,
                "Number of events sent in watch clients", "group", "version", "resource"));
        sizes = metrics.histogram(Definition.of("apiserver_watch_events_sizes", Stability.ALPHA,
                "Watch event size distribution in bytes", "group", "version", "resource"),
                Metrics.exponential(1024, 2, 8));
        terminated = metrics.counter(Definition.of("apiserver_terminated_watchers_total", Stability.ALPHA,
                "Counter of watchers closed due to unresponsiveness broken by resource type.", "group", "resource"));
        dispatched = metrics.counter(Definition.of("apiserver_watch_cache_events_dispatched_total", Stability.ALPHA,
                "Counter of events dispatched in watch cache broken by resource type.", "group", "resource"));
        received = metrics.counter(Definition.of("apiserver_watch_cache_events_received_total", Stability.ALPHA,
                "Counter of events received in watch cache broken by resource type.", "group", "resource"));
        initializations = metrics.counter(Definition.of("apiserver_watch_cache_initializations_total",
                Stability.ALPHA, "Counter of watch cache initializations broken by resource type.", "group",
                "resource"));
        resourceVersion = metrics.gauge(Definition.of("apiserver_watch_cache_resource_version", Stability.ALPHA,
                "Current resource version of watch cache broken by resource type.", "group", "resource"));
        readWait = metrics.histogram(Definition.of("apiserver_watch_cache_read_wait_seconds", Stability.ALPHA,
                "Histogram of time spent waiting for a watch cache to become fresh.", "group", "resource"),
                0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3);
    }

    /** An event sent to one watcher, of {@code bytes} encoded. */
    public void sent(String group, String version, String resource, long bytes) {
        events.inc(group, version, resource);
        sizes.observe(bytes, group, version, resource);
    }

    public void terminated(String group, String resource) {
        terminated.inc(group, resource);
    }

    /** An event the watch cache received from the store and dispatched to its watchers; its new revision. */
    public void cached(String group, String resource, long revision) {
        received.inc(group, resource);
        dispatched.inc(group, resource);
        resourceVersion.set(revision, group, resource);
    }

    public void initialized(String group, String resource, long revision) {
        initializations.inc(group, resource);
        resourceVersion.set(revision, group, resource);
    }

    /** A read that waited from {@code startNanos} for the cache to reach the revision it asked for. */
    public void readWaited(String group, String resource, long startNanos) {
        readWait.observeSince(startNanos, group, resource);
    }
}

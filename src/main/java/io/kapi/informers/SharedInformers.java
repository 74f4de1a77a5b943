package io.kapi.informers;

import io.kapi.machinery.GroupVersionResource;
import io.kapi.registry.ResourceStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The server's one informer per resource (client-go's {@code SharedInformerFactory}), shared by every
 * controller, authorizer and admission plugin that reads it: one list and one watch of the watch cache
 * per resource, however many handlers. Informers asked for before {@link #start()} start with it; those
 * asked for later start at once. {@link #close()} stops them all.
 */
public final class SharedInformers implements AutoCloseable {

    private final Function<GroupVersionResource, Optional<ResourceStore>> stores;
    private final Map<GroupVersionResource, Informer> informers = new ConcurrentHashMap<>();
    private volatile boolean started;
    private volatile boolean closed;

    /** @param stores the store of a resource, empty while it is not served */
    public SharedInformers(Function<GroupVersionResource, Optional<ResourceStore>> stores) {
        this.stores = stores;
    }

    /** The informer of {@code resource}, made on first ask; started if this factory is. */
    public Informer informer(GroupVersionResource resource) {
        if (closed) {
            throw new IllegalStateException("the informers are closed");
        }
        Informer informer = informers.computeIfAbsent(resource,
                r -> new Informer(r, () -> stores.apply(r).orElse(null)));
        if (started) {
            informer.start();
        }
        return informer;
    }

    /** Starts every informer asked for so far, and every later one as it is asked for. */
    public void start() {
        started = true;
        informers.values().forEach(Informer::start);
    }

    /** Waits until every informer asked for so far has listed once; false when {@code timeout} passed first. */
    public boolean awaitSynced(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        for (Informer i : List.copyOf(informers.values())) {
            if (!i.awaitSynced(Duration.ofNanos(Math.max(0, end - System.nanoTime())))) {
                return false;
            }
        }
        return true;
    }

    /** The resources whose informers were asked for so far. */
    public Set<GroupVersionResource> requested() {
        return Set.copyOf(informers.keySet());
    }

    /**
     * Of {@code among}, the resources served now whose informers started and have not listed yet (none before
     * {@link #start}): what kube-apiserver's {@code informer-sync} readiness check reports. An informer of a
     * resource not served (yet) is left out: it waits for its resource, not the server for it.
     */
    public List<GroupVersionResource> notSynced(Collection<GroupVersionResource> among) {
        if (!started) {
            return List.of();
        }
        List<GroupVersionResource> waiting = new ArrayList<>();
        for (GroupVersionResource resource : among) {
            Informer informer = informers.get(resource);
            if (informer != null && !informer.synced() && stores.apply(resource).isPresent()) {
                waiting.add(resource);
            }
        }
        return waiting;
    }

    @Override
    public void close() {
        closed = true;
        informers.values().forEach(Informer::close);
    }
}

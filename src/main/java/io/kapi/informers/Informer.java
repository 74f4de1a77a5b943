package io.kapi.informers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import io.kapi.registry.ListOptions;
import io.kapi.registry.ListResult;
import io.kapi.registry.ResourceStore;
import io.kapi.storage.cache.CacheWatch;
import io.kapi.storage.cache.Delivery;
import io.kapi.storage.cache.EventType;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Every object of one resource, kept current by a list and then a watch from the list's revision,
 * served by the resource's watch cache (client-go's shared informer and its indexer): relisted whenever
 * the watch ends or fails. Reads never touch storage; {@link EventHandler}s are told of each change, in
 * order, on the informer's one virtual thread. Made and shared by {@link SharedInformers}: one list and
 * watch per resource, whoever reads it.
 *
 * <p>The objects held are shared with every reader and handler: never change them.
 */
public final class Informer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Informer.class.getName());
    private static final long POLL_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(50);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(2);

    private final GroupVersionResource resource;
    private final Supplier<ResourceStore> store;
    private final Map<String, Map<String, ObjectNode>> objects = new ConcurrentHashMap<>();
    private final List<EventHandler> handlers = new CopyOnWriteArrayList<>();
    private final CountDownLatch synced = new CountDownLatch(1);
    private final AtomicLong generation = new AtomicLong();
    private final Thread thread;
    private volatile boolean closed;

    /** @param store the resource's store, or null while it is not served (a custom resource not yet established) */
    Informer(GroupVersionResource resource, Supplier<ResourceStore> store) {
        this.resource = resource;
        this.store = store;
        this.thread = Thread.ofVirtual().name("informer-" + resource.resource()).unstarted(this::run);
    }

    public GroupVersionResource resource() {
        return resource;
    }

    /** Starts the list and watch; only the first call does. */
    synchronized void start() {
        if (thread.getState() == Thread.State.NEW && !closed) {
            thread.start();
        }
    }

    /**
     * Adds a handler. Once the informer has synced, the handler is first told of every object held, as
     * additions (client-go's handlers added late get the same), before any later change.
     */
    public void addHandler(EventHandler handler) {
        synchronized (this) {
            handlers.add(handler);
            if (synced()) {
                for (Map<String, ObjectNode> byName : objects.values()) {
                    for (ObjectNode o : byName.values()) {
                        tell(handler, h -> h.onAdd(o));
                    }
                }
            }
        }
    }

    /** The object {@code namespace/name} ("" namespace for cluster-scoped ones), as last seen. */
    public Optional<ObjectNode> get(String namespace, String name) {
        return Optional.ofNullable(objects.getOrDefault(namespace, Map.of()).get(name));
    }

    /** The objects of {@code namespace}, or of every namespace when it is empty (and cluster-scoped ones). */
    public List<ObjectNode> list(String namespace) {
        if (!namespace.isEmpty()) {
            return List.copyOf(objects.getOrDefault(namespace, Map.of()).values());
        }
        List<ObjectNode> all = new ArrayList<>();
        objects.values().forEach(byName -> all.addAll(byName.values()));
        return all;
    }

    /** Moves on every change applied: a reader that computed something from {@link #list} can tell it is stale. */
    public long generation() {
        return generation.get();
    }

    public boolean synced() {
        return synced.getCount() == 0;
    }

    /** Waits until the first list was applied; false when {@code timeout} passed first. */
    public boolean awaitSynced(Duration timeout) throws InterruptedException {
        return synced.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    private void run() {
        Duration backoff = FIRST_BACKOFF;
        while (!closed) {
            try {
                ResourceStore s = store.get();
                if (s != null) {
                    String revision = relist(s);
                    backoff = FIRST_BACKOFF;
                    follow(s, revision);
                } else {
                    unserved();
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, "Informer of {0}: {1}; listing again", resource, e.getMessage());
            }
            try {
                Thread.sleep(backoff);
            } catch (InterruptedException e) {
                return;
            }
            backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
        }
    }

    /** Lists the resource and applies the difference to what is held; returns the list's revision. */
    private String relist(ResourceStore s) {
        ListResult list = s.listShared("", ListOptions.ALL);
        Set<String> listed = new HashSet<>();
        synchronized (this) {
            for (ObjectNode o : list.items()) {
                ObjectMeta meta = ObjectMeta.of(o);
                listed.add(meta.namespace() + "/" + meta.name());
                ObjectNode held = get(meta.namespace(), meta.name()).orElse(null);
                if (held == null || !ObjectMeta.of(held).resourceVersion().equals(meta.resourceVersion())) {
                    put(o);
                }
            }
            for (var byNamespace : objects.entrySet()) {
                for (String name : List.copyOf(byNamespace.getValue().keySet())) {
                    if (!listed.contains(byNamespace.getKey() + "/" + name)) {
                        remove(byNamespace.getKey(), name);
                    }
                }
            }
            synced.countDown();
        }
        return list.resourceVersion();
    }

    /**
     * The resource is not served (a custom resource not established, or gone, an API group turned off):
     * it has no objects, which is what its informer holds, synced, until it is served.
     */
    private synchronized void unserved() {
        for (var byNamespace : objects.entrySet()) {
            for (String name : List.copyOf(byNamespace.getValue().keySet())) {
                remove(byNamespace.getKey(), name);
            }
        }
        synced.countDown();
    }

    private void follow(ResourceStore s, String revision) throws InterruptedException {
        try (CacheWatch watch = s.watch("", ListOptions.ALL.atResourceVersion(revision, "").forWatch(null, false))) {
            while (!closed) {
                switch (watch.poll(POLL_NANOS)) {
                    case null -> {
                    }
                    case Delivery.Change c -> apply(c);
                    case Delivery.InitialEventsEnd e -> {
                    }
                    case Delivery.Failure f -> {
                        return;
                    }
                    case Delivery.End e -> {
                        return;
                    }
                }
            }
        }
    }

    private synchronized void apply(Delivery.Change c) {
        if (c.type() == EventType.DELETED) {
            ObjectMeta meta = ObjectMeta.of(c.object());
            remove(meta.namespace(), meta.name());
        } else if (c.type() == EventType.ADDED || c.type() == EventType.MODIFIED) {
            put(c.object());
        }
    }

    /** Holds {@code o} and tells the handlers; the caller holds this informer's lock. */
    private void put(ObjectNode o) {
        ObjectMeta meta = ObjectMeta.of(o);
        ObjectNode before = objects.computeIfAbsent(meta.namespace(), ns -> new ConcurrentHashMap<>()).put(meta.name(), o);
        generation.incrementAndGet();
        for (EventHandler h : handlers) {
            tell(h, before == null ? x -> x.onAdd(o) : x -> x.onUpdate(before, o));
        }
    }

    private void remove(String namespace, String name) {
        Map<String, ObjectNode> byName = objects.get(namespace);
        ObjectNode before = byName == null ? null : byName.remove(name);
        if (before != null) {
            generation.incrementAndGet();
            for (EventHandler h : handlers) {
                tell(h, x -> x.onDelete(before));
            }
        }
    }

    private void tell(EventHandler handler, java.util.function.Consumer<EventHandler> event) {
        try {
            event.accept(handler);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "A handler of the {0} informer failed: {1}", resource, e.toString());
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}

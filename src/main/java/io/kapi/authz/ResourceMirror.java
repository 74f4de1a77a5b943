package io.kapi.authz;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ObjectMeta;
import io.kapi.registry.ListOptions;
import io.kapi.registry.ListResult;
import io.kapi.registry.ResourceStore;
import io.kapi.storage.cache.CacheWatch;
import io.kapi.storage.cache.Delivery;
import io.kapi.storage.cache.EventType;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Every object of one resource, decoded, kept current by a list and then a watch from the list's
 * revision (an informer): relisted whenever the watch ends or fails. Reads never touch storage. One
 * virtual thread per mirror; {@link #close()} stops it. Authorizers (RBAC, Node) answer from mirrors.
 *
 * @param <T> the decoded form
 */
public final class ResourceMirror<T> implements AutoCloseable {

    /**
     * Told of every change a mirror applies, on the mirror's thread, in the order applied (an
     * informer's event handler): {@code before} null is an addition, {@code after} null a removal.
     * A relist reports what it changed as such changes too.
     */
    @FunctionalInterface
    public interface Listener<T> {
        void changed(String namespace, String name, T before, T after);
    }

    private static final System.Logger LOG = System.getLogger(ResourceMirror.class.getName());
    private static final long POLL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final String name;
    private final Supplier<ResourceStore> store;
    private final Function<ObjectNode, T> decode;
    private final Listener<T> listener;
    private final Map<String, Map<String, T>> objects = new ConcurrentHashMap<>();
    private final CountDownLatch synced = new CountDownLatch(1);
    private final Thread thread;
    private volatile boolean closed;

    /**
     * @param store the store, or null while it is not served yet
     * @param listener told of every change applied
     */
    public ResourceMirror(String name, Supplier<ResourceStore> store, Function<ObjectNode, T> decode,
                          Listener<T> listener) {
        this.name = name;
        this.store = store;
        this.decode = decode;
        this.listener = listener;
        this.thread = Thread.ofVirtual().name("authz-mirror-" + name).unstarted(this::run);
    }

    /** A mirror no one listens to. */
    public ResourceMirror(String name, Supplier<ResourceStore> store, Function<ObjectNode, T> decode) {
        this(name, store, decode, (ns, n, before, after) -> { });
    }

    public void start() {
        thread.start();
    }

    /** The store mirrored, or null while it is not served yet. */
    public ResourceStore store() {
        return store.get();
    }

    /** The objects of {@code namespace} ("" : cluster-scoped ones) by name; a live view. */
    public Map<String, T> in(String namespace) {
        return objects.getOrDefault(namespace, Map.of());
    }

    /** The object {@code namespace/name}, or null. */
    public T get(String namespace, String name) {
        return in(namespace).get(name);
    }

    private void put(ObjectNode o) {
        ObjectMeta meta = ObjectMeta.of(o);
        T after = decode.apply(o);
        T before = objects.computeIfAbsent(meta.namespace(), ns -> new ConcurrentHashMap<>()).put(meta.name(), after);
        listener.changed(meta.namespace(), meta.name(), before, after);
    }

    private void remove(String namespace, String objectName) {
        T before = objects.getOrDefault(namespace, Map.of()).remove(objectName);
        if (before != null) {
            listener.changed(namespace, objectName, before, null);
        }
    }

    /** Waits until the first list was applied; false when {@code timeout} passed first. */
    public boolean awaitSynced(Duration timeout) throws InterruptedException {
        return synced.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    public boolean synced() {
        return synced.getCount() == 0;
    }

    private void run() {
        Duration backoff = Duration.ofMillis(50);
        while (!closed) {
            try {
                ResourceStore s = store.get();
                if (s != null) {
                    String revision = relist(s);
                    backoff = Duration.ofMillis(50);
                    follow(s, revision);
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, "Authorization mirror of {0}: {1}; listing again", name, e.getMessage());
            }
            try {
                Thread.sleep(backoff);
            } catch (InterruptedException e) {
                return;
            }
            backoff = backoff.multipliedBy(2).compareTo(Duration.ofSeconds(2)) > 0 ? Duration.ofSeconds(2)
                    : backoff.multipliedBy(2);
        }
    }

    private String relist(ResourceStore s) {
        ListResult list = s.list("", ListOptions.ALL);
        java.util.Set<String> listed = new java.util.HashSet<>();
        for (ObjectNode o : list.items()) {
            put(o);
            listed.add(ObjectMeta.of(o).namespace() + "/" + ObjectMeta.of(o).name());
        }
        objects.forEach((ns, byName) -> java.util.List.copyOf(byName.keySet()).stream()
                .filter(n -> !listed.contains(ns + "/" + n)).forEach(n -> remove(ns, n)));
        synced.countDown();
        return list.resourceVersion();
    }

    private void follow(ResourceStore s, String revision) throws InterruptedException {
        try (CacheWatch watch = s.watch("", ListOptions.ALL.atResourceVersion(revision, "").forWatch(null, false))) {
            while (!closed) {
                Delivery d = watch.poll(POLL_NANOS);
                switch (d) {
                    case null -> {
                    }
                    case Delivery.Change c -> {
                        if (c.type() == EventType.DELETED) {
                            ObjectMeta meta = ObjectMeta.of(c.object());
                            remove(meta.namespace(), meta.name());
                        } else if (c.type() == EventType.ADDED || c.type() == EventType.MODIFIED) {
                            put(c.object());
                        }
                    }
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

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}

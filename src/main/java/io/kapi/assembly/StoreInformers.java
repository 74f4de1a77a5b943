package io.kapi.assembly;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.ConfigSource;
import io.kapi.admission.LiveObjects;
import io.kapi.health.PostStartHook;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import io.kapi.registry.ListOptions;
import io.kapi.registry.ListResult;
import io.kapi.registry.Registry;
import io.kapi.registry.ResourceStore;
import io.kapi.storage.cache.CacheWatch;
import io.kapi.storage.cache.Delivery;
import io.kapi.storage.cache.EventType;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * kube's informers for admission: one list-then-watch per configuration resource on a virtual thread,
 * keeping a snapshot plugins read without a request. Started by its post-start hook (after the watch
 * caches), which waits for every first list; a watch that ends or fails is replaced by a new list and
 * watch. Stopped by {@link #close()}.
 */
final class StoreInformers implements ConfigSource, PostStartHook, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(StoreInformers.class.getName());
    private static final Duration FIRST_LIST = Duration.ofSeconds(30);

    private final java.util.function.Supplier<Registry> registry;
    private final Map<GroupVersionResource, Informer> informers = new ConcurrentHashMap<>();
    private volatile boolean started;
    private volatile boolean closed;

    /** @param registry the registry, known once it is built (before the hook runs) */
    StoreInformers(java.util.function.Supplier<Registry> registry) {
        this.registry = registry;
    }

    @Override
    public LiveObjects watch(GroupVersionResource resource) {
        Informer informer = informers.computeIfAbsent(resource, Informer::new);
        if (started) {
            informer.start();
        }
        return informer;
    }

    @Override
    public String name() {
        return "start-kapi-admission-informers";
    }

    @Override
    public void run() throws InterruptedException {
        started = true;
        informers.values().forEach(Informer::start);
        for (Informer informer : informers.values()) {
            if (!informer.listed.await(FIRST_LIST.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.log(Level.WARNING, "admission informer for {0} has no list yet", informer.resource);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        informers.values().forEach(Informer::stop);
    }

    /** One resource's view. */
    private final class Informer implements LiveObjects {
        private final GroupVersionResource resource;
        private final CountDownLatch listed = new CountDownLatch(1);
        private final Map<String, ObjectNode> objects = new LinkedHashMap<>();
        private volatile List<ObjectNode> snapshot = List.of();
        private volatile long generation = -1;
        private Thread thread;

        Informer(GroupVersionResource resource) {
            this.resource = resource;
        }

        @Override
        public List<ObjectNode> items() {
            return snapshot;
        }

        @Override
        public long generation() {
            return generation;
        }

        synchronized void start() {
            if (thread == null && !closed) {
                thread = Thread.ofVirtual().name("informer-" + resource.resource()).start(this::loop);
            }
        }

        synchronized void stop() {
            if (thread != null) {
                thread.interrupt();
            }
        }

        private void loop() {
            while (!closed && !Thread.currentThread().isInterrupted()) {
                try {
                    Optional<ResourceStore> store = registry.get().store(resource);
                    if (store.isEmpty()) {
                        publish(List.of());
                        Thread.sleep(1_000);
                        continue;
                    }
                    listAndWatch(store.get());
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "admission informer for {0} failed, listing again: {1}", resource, e.toString());
                    sleepQuietly();
                }
            }
        }

        private void listAndWatch(ResourceStore store) throws InterruptedException {
            ListResult list = store.list("", ListOptions.ALL);
            objects.clear();
            list.items().forEach(o -> objects.put(key(o), o));
            publish(List.copyOf(objects.values()));
            ListOptions from = ListOptions.ALL.atResourceVersion(list.resourceVersion(), "").forWatch(null, false);
            try (CacheWatch watch = store.watch("", from)) {
                while (!closed) {
                    Delivery d = watch.poll(TimeUnit.SECONDS.toNanos(5));
                    switch (d) {
                        case null -> { }
                        case Delivery.Change change -> apply(change);
                        case Delivery.InitialEventsEnd end -> { }
                        case Delivery.Failure failure -> {
                            return;
                        }
                        case Delivery.End end -> {
                            return;
                        }
                    }
                }
            }
        }

        private void apply(Delivery.Change change) {
            if (change.type() == EventType.DELETED) {
                objects.remove(key(change.object()));
            } else {
                objects.put(key(change.object()), change.object());
            }
            publish(List.copyOf(objects.values()));
        }

        private void publish(List<ObjectNode> items) {
            snapshot = items;
            generation = generation + 1;
            listed.countDown();
        }

        private static String key(ObjectNode o) {
            ObjectMeta meta = ObjectMeta.of(o);
            return meta.namespace() + "/" + meta.name();
        }

        private static void sleepQuietly() {
            try {
                Thread.sleep(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}

package io.kapi.assembly;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.ConfigSource;
import io.kapi.admission.LiveObjects;
import io.kapi.health.PostStartHook;
import io.kapi.informers.Informer;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.GroupVersionResource;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The admission plugins' views of their configuration resources (webhook configurations, policies and
 * bindings, ...), read from the server's shared informers: a snapshot plugins read without a request,
 * remade only when the informer has moved. Its post-start hook waits for every first list.
 */
final class StoreInformers implements ConfigSource, PostStartHook {

    private static final System.Logger LOG = System.getLogger(StoreInformers.class.getName());
    private static final Duration FIRST_LIST = Duration.ofSeconds(30);

    private final Supplier<SharedInformers> informers;
    private final Map<GroupVersionResource, View> views = new ConcurrentHashMap<>();

    /** @param informers the shared informers, made once the registry is (plugins ask for views before) */
    StoreInformers(Supplier<SharedInformers> informers) {
        this.informers = informers;
    }

    @Override
    public LiveObjects watch(GroupVersionResource resource) {
        View view = views.computeIfAbsent(resource, View::new);
        view.informer();
        return view;
    }

    @Override
    public String name() {
        return "start-apiserver-admission-initializer";
    }

    /** The resources the plugins asked to follow. */
    Set<GroupVersionResource> resources() {
        return Set.copyOf(views.keySet());
    }

    @Override
    public void run() throws InterruptedException {
        for (View view : views.values()) {
            Informer informer = view.informer();
            if (informer != null && !informer.awaitSynced(FIRST_LIST)) {
                LOG.log(Level.WARNING, "admission informer for {0} has no list yet", view.resource);
            }
        }
    }

    /** One resource's view: the informer's objects, copied into a list once per change. */
    private final class View implements LiveObjects {
        private final GroupVersionResource resource;
        private volatile Informer informer;
        private volatile Snapshot snapshot = new Snapshot(-1, List.of());

        private record Snapshot(long generation, List<ObjectNode> items) {
        }

        View(GroupVersionResource resource) {
            this.resource = resource;
        }

        /** The informer, once the shared informers exist; null before. */
        Informer informer() {
            Informer i = informer;
            if (i == null) {
                SharedInformers shared = informers.get();
                if (shared != null) {
                    i = shared.informer(resource);
                    informer = i;
                }
            }
            return i;
        }

        @Override
        public List<ObjectNode> items() {
            Informer i = informer();
            if (i == null || !i.synced()) {
                return List.of();
            }
            long generation = i.generation();
            Snapshot s = snapshot;
            if (s.generation() != generation) {
                s = new Snapshot(generation, List.copyOf(i.list("")));
                snapshot = s;
            }
            return s.items();
        }

        @Override
        public long generation() {
            Informer i = informer();
            return i == null || !i.synced() ? -1 : i.generation();
        }
    }
}

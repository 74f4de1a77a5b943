package io.kapi.controllers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.client.LocalClient;
import io.kapi.health.PostStartHook;
import io.kapi.informers.EventHandler;
import io.kapi.informers.PassController;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersion;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.ObjectMeta;
import io.kapi.registry.DeleteOptions;
import io.kapi.registry.Registry;
import io.kapi.registry.ResourceStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The garbage collector of standalone mode (kube-controller-manager's, simplified): an object whose
 * every owner is gone is deleted (in the background); owner references to owners that are gone are
 * dropped while other owners remain; an owner deleted with {@code propagationPolicy=Foreground}
 * ({@code foregroundDeletion} finalizer) has its dependents deleted, in the foreground too, and loses
 * the finalizer once none is left; one deleted with {@code Orphan} ({@code orphan} finalizer) has its
 * references removed from its dependents, then loses the finalizer. Owners are matched by uid.
 *
 * <p>A pass reads the watch caches (no copies of objects it need not change) and writes through the API
 * as {@code system:serviceaccount:kube-system:generic-garbage-collector}. Every stored resource's shared
 * informer is watched (kube's collector monitors every resource), and a pass runs when a change can give it
 * work ({@link GraphChanges}): an object that has owners added or its owners changed, an owner that starts
 * finalizing in the foreground or as an orphaner, and any deletion; coalesced and at least {@link #SPACING}
 * apart, from its post-start hook until {@link #close()}. Other writes (most of them: objects without owners,
 * status updates) cost the collector nothing.
 */
public final class GarbageCollector implements PostStartHook, AutoCloseable {

    static final String FOREGROUND = "foregroundDeletion";
    static final String ORPHAN = "orphan";
    /**
     * How soon after a change a pass runs, and so how far apart passes are under a flood of writes: a pass
     * reads every object of the watch caches (at 100k objects a walk over all of them).
     */
    private static final Duration SPACING = Duration.ofMillis(100);
    /** A pass every minute in any case: what a pass could not do (a failed delete) is tried again. */
    private static final Duration FULL_PASS = Duration.ofMinutes(1);

    private final LocalClient client;
    private final Registry registry;
    private final SharedInformers informers;
    private final PassController passes;
    private final Set<String> watched = ConcurrentHashMap.newKeySet();

    /**
     * @param client writes as the collector's identity
     * @param registry what it reads: every stored resource
     * @param informers whose changes of any stored resource (kube's GC monitors every one) ask for a pass
     */
    public GarbageCollector(LocalClient client, Registry registry, SharedInformers informers) {
        this.client = client;
        this.registry = registry;
        this.informers = informers;
        this.passes = new PassController("garbage-collector", SPACING, this::collect).resyncEvery(FULL_PASS);
    }

    @Override
    public String name() {
        return "start-kapi-garbage-collector";
    }

    @Override
    public void run() {
        watchEveryResource();
        passes.start();
    }

    /** Watches every stored resource not watched yet (custom resources come and go). */
    private void watchEveryResource() {
        for (ResourceStore store : registry.stores()) {
            if (watched.add(store.definition().keys().prefix())) {
                informers.informer(store.resource().gvr()).addHandler(new GraphChanges());
            }
        }
    }


    /**
     * The changes that can give a pass work, as kube's collector updates its graph only for changes of owner
     * references, of deletion state and for deletions: before, every write of any object asked for a pass over
     * every object, which under a stream of writes ran ten passes a second.
     */
    private final class GraphChanges implements EventHandler {
        @Override
        public void onAdd(ObjectNode object) {
            if (owned(object) || finalizing(object)) {
                passes.trigger();
            }
        }

        @Override
        public void onUpdate(ObjectNode before, ObjectNode after) {
            JsonNode refs = after.path("metadata").path("ownerReferences");
            boolean refsChanged = !refs.equals(before.path("metadata").path("ownerReferences"));
            boolean deleting = after.path("metadata").hasNonNull("deletionTimestamp");
            boolean startedDeleting = deleting && !before.path("metadata").hasNonNull("deletionTimestamp");
            boolean finalizersChanged = deleting
                    && !after.path("metadata").path("finalizers").equals(before.path("metadata").path("finalizers"));
            if (refsChanged || (owned(after) || finalizing(after)) && (startedDeleting || finalizersChanged)) {
                passes.trigger();
            }
        }

        @Override
        public void onDelete(ObjectNode object) {
            passes.trigger(); // its dependents may be orphans now, or an owner finalizing in the foreground done
        }
    }

    private static boolean owned(ObjectNode o) {
        return o.path("metadata").path("ownerReferences").size() > 0;
    }

    /** One object the collector looks at, with the store it came from. */
    private record Found(ResourceStore store, ObjectNode object) {
        String uid() {
            return ObjectMeta.of(object).uid();
        }
    }

    /** One pass over every stored resource. */
    public void collect() {
        watchEveryResource();
        Set<String> present = new HashSet<>();
        List<Found> dependents = new ArrayList<>();
        List<Found> finalizing = new ArrayList<>();
        Set<String> prefixes = new HashSet<>();
        for (ResourceStore store : registry.stores()) {
            if (!prefixes.add(store.definition().keys().prefix())) {
                continue; // a resource served in several versions: one pass over its objects
            }
            for (ObjectNode o : store.select("", o -> {
                present.add(o.path("metadata").path("uid").asText(""));
                return o.path("metadata").path("ownerReferences").size() > 0 || finalizing(o);
            })) {
                if (o.path("metadata").path("ownerReferences").size() > 0) {
                    dependents.add(new Found(store, o));
                }
                if (finalizing(o)) {
                    finalizing.add(new Found(store, o));
                }
            }
        }
        for (Found owner : finalizing) {
            finish(owner, dependentsOf(owner.uid(), dependents));
        }
        for (Found dependent : dependents) {
            if (ObjectMeta.of(dependent.object()).deletionTimestamp().isEmpty()) {
                collectIfOrphaned(dependent, present);
            }
        }
    }

    private static boolean finalizing(ObjectNode o) {
        if (!o.path("metadata").hasNonNull("deletionTimestamp")) {
            return false;
        }
        for (JsonNode f : o.path("metadata").path("finalizers")) {
            if (f.asText().equals(FOREGROUND) || f.asText().equals(ORPHAN)) {
                return true;
            }
        }
        return false;
    }

    private static List<Found> dependentsOf(String uid, List<Found> dependents) {
        List<Found> out = new ArrayList<>();
        for (Found d : dependents) {
            for (JsonNode ref : d.object().path("metadata").path("ownerReferences")) {
                if (ref.path("uid").asText().equals(uid)) {
                    out.add(d);
                }
            }
        }
        return out;
    }

    /**
     * Foreground: delete the dependents (in the foreground too), and drop the finalizer once no dependent
     * that blocks its owner's deletion ({@code blockOwnerDeletion: true}) is left; orphan: free the
     * dependents, then drop the finalizer.
     */
    private void finish(Found owner, List<Found> dependents) {
        if (!hasFinalizer(owner.object(), FOREGROUND)) {
            for (Found d : dependents) {
                dropReferences(d, Set.of(owner.uid()));
            }
            removeFinalizer(owner, ORPHAN);
            return;
        }
        boolean blocked = false;
        for (Found d : dependents) {
            if (ObjectMeta.of(d.object()).deletionTimestamp().isEmpty()) {
                delete(d, "Foreground");
            }
            blocked |= blocks(d.object(), owner.uid());
        }
        if (!blocked) {
            removeFinalizer(owner, FOREGROUND);
        }
    }

    private static boolean blocks(ObjectNode dependent, String ownerUid) {
        for (JsonNode ref : dependent.path("metadata").path("ownerReferences")) {
            if (ref.path("uid").asText().equals(ownerUid) && ref.path("blockOwnerDeletion").asBoolean(false)) {
                return true;
            }
        }
        return false;
    }

    /** Deletes a dependent whose owners are all gone; drops the references to gone owners otherwise. */
    private void collectIfOrphaned(Found dependent, Set<String> present) {
        Set<String> gone = new HashSet<>();
        int owners = 0;
        for (JsonNode ref : dependent.object().path("metadata").path("ownerReferences")) {
            owners++;
            if (!present.contains(ref.path("uid").asText()) && absent(dependent, ref)) {
                gone.add(ref.path("uid").asText());
            }
        }
        if (gone.isEmpty()) {
            return;
        }
        if (gone.size() == owners) {
            delete(dependent, "Background");
        } else {
            dropReferences(dependent, gone);
        }
    }

    /**
     * Whether the owner a reference names is really gone, asked of the API (the caches of two resources
     * may be a moment apart, as kube's collector checks before it deletes): absent, or another object
     * (another uid) under that name. An owner of a kind the server does not serve counts as present.
     */
    private boolean absent(Found dependent, JsonNode ref) {
        GroupVersion gv = GroupVersion.parse(ref.path("apiVersion").asText(""));
        var resource = registry.model().table().forKind(new GroupVersionKind(gv.group(), gv.version(),
                ref.path("kind").asText("")));
        if (resource.isEmpty()) {
            return false;
        }
        String namespace = resource.get().namespaced() ? ObjectMeta.of(dependent.object()).namespace() : "";
        return client.resource(resource.get().gvr()).find(namespace, ref.path("name").asText(""))
                .map(o -> !ObjectMeta.of(o).uid().equals(ref.path("uid").asText()))
                .orElse(true);
    }

    private void delete(Found d, String propagation) {
        ObjectMeta meta = ObjectMeta.of(d.object());
        try {
            client.resource(d.store().resource().gvr()).delete(meta.namespace(), meta.name(),
                    new DeleteOptions(meta.uid(), null, false, propagation, null));
        } catch (ApiException e) {
            ignoreRaces(e);
        }
    }

    private void dropReferences(Found d, Set<String> uids) {
        ObjectNode copy = d.object().deepCopy();
        ArrayNode refs = (ArrayNode) copy.with("metadata").get("ownerReferences");
        for (Iterator<JsonNode> it = refs.elements(); it.hasNext(); ) {
            if (uids.contains(it.next().path("uid").asText())) {
                it.remove();
            }
        }
        if (refs.isEmpty()) {
            copy.with("metadata").remove("ownerReferences");
        }
        update(d, copy);
    }

    private void removeFinalizer(Found owner, String finalizer) {
        ObjectNode copy = owner.object().deepCopy();
        ArrayNode finalizers = (ArrayNode) copy.with("metadata").get("finalizers");
        for (Iterator<JsonNode> it = finalizers.elements(); it.hasNext(); ) {
            if (it.next().asText().equals(finalizer)) {
                it.remove();
            }
        }
        update(owner, copy);
    }

    /** PUT with the resourceVersion read as precondition: a concurrent change makes the next pass look again. */
    private void update(Found d, ObjectNode wanted) {
        try {
            client.resource(d.store().resource().gvr()).update(wanted);
        } catch (ApiException e) {
            ignoreRaces(e);
        }
    }

    private static boolean hasFinalizer(ObjectNode o, String finalizer) {
        for (JsonNode f : o.path("metadata").path("finalizers")) {
            if (f.asText().equals(finalizer)) {
                return true;
            }
        }
        return false;
    }

    /** Not found (gone meanwhile) and conflicts (changed meanwhile) wait for the next pass. */
    private static void ignoreRaces(ApiException e) {
        if (!e.lostRace()) {
            throw e;
        }
    }

    @Override
    public void close() {
        passes.close();
    }
}

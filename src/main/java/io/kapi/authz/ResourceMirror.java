package io.kapi.authz;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.informers.EventHandler;
import io.kapi.informers.Informer;
import io.kapi.machinery.ObjectMeta;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Every object of one resource, decoded into what an authorizer needs, kept current by the resource's
 * shared {@link Informer} (one list and watch, whoever else reads it): the decoded form of each object is
 * made once, as its change arrives. Reads never touch storage. Authorizers (RBAC, Node) answer from mirrors.
 *
 * @param <T> the decoded form
 */
public final class ResourceMirror<T> implements AutoCloseable {

    /**
     * Told of every change a mirror applies, on the informer's thread, in the order applied (an
     * informer's event handler): {@code before} null is an addition, {@code after} null a removal.
     * A relist reports what it changed as such changes too.
     */
    @FunctionalInterface
    public interface Listener<T> {
        void changed(String namespace, String name, T before, T after);
    }

    private final Informer informer;
    private final Function<ObjectNode, T> decode;
    private final Listener<T> listener;
    private final Map<String, Map<String, T>> objects = new ConcurrentHashMap<>();

    /** @param listener told of every change applied */
    public ResourceMirror(Informer informer, Function<ObjectNode, T> decode, Listener<T> listener) {
        this.informer = informer;
        this.decode = decode;
        this.listener = listener;
        informer.addHandler(new EventHandler() {
            @Override
            public void onAdd(ObjectNode object) {
                put(object);
            }

            @Override
            public void onUpdate(ObjectNode before, ObjectNode after) {
                put(after);
            }

            @Override
            public void onDelete(ObjectNode object) {
                ObjectMeta meta = ObjectMeta.of(object);
                remove(meta.namespace(), meta.name());
            }
        });
    }

    /** A mirror no one listens to. */
    public ResourceMirror(Informer informer, Function<ObjectNode, T> decode) {
        this(informer, decode, (ns, n, before, after) -> { });
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
        return informer.awaitSynced(timeout);
    }

    public boolean synced() {
        return informer.synced();
    }

    /** Nothing to stop: the informer is the factory's, shared, and stops with it. */
    @Override
    public void close() {
    }
}

package io.kapi.apis.bootstrap;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import io.kapi.registry.Registry;
import io.kapi.registry.ResourceStore;
import io.kapi.registry.SystemWrites;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The few store operations the bootstrap hooks need, written for several replicas racing on the
 * same objects: a create that loses to another replica is fine, an update that loses is run again by
 * the store on the fresh object.
 */
final class Stores {

    private Stores() {
    }

    /** The store of a built-in resource. @throws IllegalStateException when the registry does not serve it */
    static ResourceStore of(Registry registry, String group, String version, String plural) {
        return registry.resource(group, version, plural).flatMap(registry::store)
                .orElseThrow(() -> new IllegalStateException("no store for " + group + "/" + version + "/" + plural));
    }

    static Optional<ObjectNode> find(ResourceStore store, String namespace, String name) {
        try {
            return Optional.of(store.get(namespace, name));
        } catch (ApiException e) {
            if (e.reason() == StatusReason.NOT_FOUND) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** Creates {@code object}; returns false when it already exists (created by someone else meanwhile). */
    static boolean createIfMissing(ResourceStore store, ObjectNode object) {
        try {
            SystemWrites.create(store, ObjectMeta.of(object).namespace(), object.deepCopy());
            return true;
        } catch (ApiException e) {
            if (e.reason() == StatusReason.ALREADY_EXISTS) {
                return false;
            }
            throw e;
        }
    }

    /**
     * Applies {@code change} to a copy of the current object and writes it when the change returns a
     * different object; the store runs it again on a newer object after a lost race. {@code change}
     * returns its argument unchanged (or {@code null}) for "nothing to do". Returns whether anything was
     * written.
     *
     * @throws ApiException NotFound when the object does not exist
     */
    static boolean update(ResourceStore store, String namespace, String name, UnaryOperator<ObjectNode> change) {
        boolean[] changed = new boolean[1];
        SystemWrites.update(store, namespace, name, current -> {
            ObjectNode wanted = change.apply(current.deepCopy());
            changed[0] = wanted != null && !wanted.equals(current);
            return changed[0] ? wanted : current;
        });
        return changed[0];
    }
}

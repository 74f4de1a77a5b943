package io.kapi.apis.bootstrap;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import io.kapi.registry.Registry;
import io.kapi.registry.ResourceStore;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The few store operations the bootstrap hooks need, written for several replicas racing on the
 * same objects: a create that loses to another replica is fine, an update that loses is retried on
 * the fresh object.
 */
final class Stores {

    /** Updates that keep losing to concurrent writers give up after this many attempts. */
    private static final int UPDATE_ATTEMPTS = 5;

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
            store.create(ObjectMeta.of(object).namespace(), object.deepCopy(), false);
            return true;
        } catch (ApiException e) {
            if (e.reason() == StatusReason.ALREADY_EXISTS) {
                return false;
            }
            throw e;
        }
    }

    /**
     * Reads the object and applies {@code change} to a copy; writes it when the change returns a
     * different object, retrying on conflicts. {@code change} returns its argument unchanged (or
     * {@code null}) for "nothing to do". Returns whether anything was written.
     *
     * @throws ApiException NotFound when the object does not exist, Conflict after repeated losses
     */
    static boolean update(ResourceStore store, String namespace, String name, UnaryOperator<ObjectNode> change) {
        for (int attempt = 1; ; attempt++) {
            ObjectNode current = store.get(namespace, name);
            ObjectNode wanted = change.apply(current.deepCopy());
            if (wanted == null || wanted.equals(current)) {
                return false;
            }
            try {
                store.update(namespace, name, wanted, false);
                return true;
            } catch (ApiException e) {
                if (e.reason() != StatusReason.CONFLICT || attempt == UPDATE_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }
}

package io.kapi.machinery.conversion;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * How the objects of one served version of a resource become those of its storage version and back,
 * as kube-apiserver converts through its internal version: {@code v1 → internal → v2} on a write to a
 * resource stored as {@code v2}, {@code v2 → internal → v1} on a read. A resource has one storage
 * version; each version it serves has a converter to it ({@link #NONE} when objects are kept as served).
 *
 * <p>Both functions are pure: they leave their argument unchanged and return a new object that shares no
 * node with it (callers may change the result, and may pass objects the watch cache shares). They
 * set {@code apiVersion} and {@code kind} of the version they produce and carry {@code metadata} over
 * (resourceVersion and managedFields included); fields the target version has no place for are kept
 * in annotations where kube's conversion keeps them. Converting a stored object back and forth gives
 * the same stored object.
 */
public interface Converter {

    /**
     * The object as its storage version holds it, as kube's storage would read it back (converted,
     * then given the storage version's defaults, which kube applies when it decodes a stored object).
     *
     * @throws io.kapi.machinery.ApiException BadRequest when the object cannot be converted (a malformed
     *         round-trip annotation), as kube-apiserver answers a body that does not decode
     */
    ObjectNode toStorage(ObjectNode served);

    /** The stored object as this version serves it. */
    ObjectNode fromStorage(ObjectNode stored);

    /**
     * The items of a list as this version serves them, in order: each as {@link #fromStorage(ObjectNode)}
     * makes it, by default one at a time; a converter that calls out (a conversion webhook) converts them
     * in one call, as kube converts a list.
     */
    default List<ObjectNode> fromStorage(List<ObjectNode> stored) {
        return stored.stream().map(this::fromStorage).toList();
    }

    /** Objects are stored as they are served: the store never calls it, and it only copies. */
    Converter NONE = new Converter() {
        @Override
        public ObjectNode toStorage(ObjectNode served) {
            return served.deepCopy();
        }

        @Override
        public ObjectNode fromStorage(ObjectNode stored) {
            return stored.deepCopy();
        }

        @Override
        public String toString() {
            return "Converter.NONE";
        }
    };
}

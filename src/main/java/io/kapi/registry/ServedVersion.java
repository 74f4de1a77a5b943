package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.conversion.Converter;
import java.util.List;

/**
 * A store's way between the version it serves and the one it stores: its definition's
 * {@link Converter}, skipped altogether for resources kept as served (the common case, which then
 * pays nothing).
 */
final class ServedVersion {

    private final Converter converter;
    private final boolean converts;

    ServedVersion(ResourceDefinition definition) {
        this.converter = definition.converter();
        this.converts = definition.converts();
    }

    boolean converts() {
        return converts;
    }

    /** {@code served} in the storage version: a new object, or {@code served} itself when nothing converts. */
    ObjectNode toStored(ObjectNode served) {
        return converts ? converter.toStorage(served) : served;
    }

    /** A private {@code stored} object in the served version: a new object, or {@code stored} itself. */
    ObjectNode served(ObjectNode stored) {
        return converts ? converter.fromStorage(stored) : stored;
    }

    /** Private stored objects in the served version, in one conversion (see {@link Converter#fromStorage(List)}). */
    List<ObjectNode> served(List<ObjectNode> stored) {
        return converts ? converter.fromStorage(stored) : stored;
    }

    /** A shared stored object (the watch cache's) as a new object of the served version. */
    ObjectNode servedCopy(ObjectNode shared) {
        return converts ? converter.fromStorage(shared) : shared.deepCopy();
    }
}

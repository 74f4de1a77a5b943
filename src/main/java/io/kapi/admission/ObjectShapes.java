package io.kapi.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersionKind;

/**
 * What a mutating plugin needs to know of a kind's structure beyond its objects: how an apply
 * configuration merges into one (by its schema, as server-side apply merges) and how its defaults are
 * filled after a mutation, as kube defaults a mutated object before it goes on.
 */
public interface ObjectShapes {

    /**
     * {@code live} with {@code configuration} merged in, no ownership recorded.
     *
     * @throws IllegalArgumentException when the configuration does not fit the kind (a field its schema
     *         lacks, an atomic list, map or struct), in kube's words
     */
    ObjectNode mergeConfiguration(GroupVersionKind kind, ObjectNode live, ObjectNode configuration);

    /** Fills the kind's defaults in {@code object}, in place. */
    void applyDefaults(GroupVersionKind kind, ObjectNode object);
}

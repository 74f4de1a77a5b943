package io.kapi.machinery.conversion;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersionKind;

/**
 * Conversion between any two served versions of one resource (through its storage version), as the
 * field manager needs it: kube tracks managed fields per {@code apiVersion}, and compares the fields a
 * manager owns in the version that manager wrote them in.
 */
@FunctionalInterface
public interface VersionConversions {

    /** No resource is served in more than one version. */
    VersionConversions NONE = (object, from, toApiVersion) -> null;

    /**
     * {@code object}, of kind {@code from}, as version {@code toApiVersion} of the same resource serves
     * it (a new object; the argument is unchanged); null when no version {@code toApiVersion} of that
     * resource is served (kube's missing-version error: the manager of that version is dropped).
     */
    ObjectNode convert(ObjectNode object, GroupVersionKind from, String toApiVersion);
}

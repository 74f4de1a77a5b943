package io.kapi.machinery.resource;

import io.kapi.machinery.GroupVersionKind;
import java.util.List;

/**
 * What the resource table says of a resource beyond its discovery row: where and as what it is
 * stored, and the few behaviours kube-apiserver's strategy for it fixes by a flag.
 *
 * @param storageVersion kube-apiserver's storage version of the resource (discovery's storageVersionHash
 *        is computed from it; every served version of a resource has the same); null for resources that
 *        are computed, not stored (reviews, bindings)
 * @param storagePath the etcd path segment under {@code /registry/}: the plural, or kube-apiserver's
 *        historical one ({@code services/specs}, {@code minions}); custom resources use {@code group/plural};
 *        the same for every served version of a resource (core and {@code events.k8s.io} events
 *        share {@code events})
 * @param tracksGeneration whether the strategy maintains {@code metadata.generation}
 * @param createOnUpdate whether a PUT to a missing object creates it
 * @param selectableFields the fields a field selector may name beyond {@code metadata.name} and
 *        {@code metadata.namespace}
 * @param deprecation the warning kube-apiserver adds to every request of a deprecated resource
 *        ({@code v1 ComponentStatus is deprecated in v1.19+}, or a custom resource version's
 *        {@code deprecationWarning}), or null
 */
public record ResourceFacts(GroupVersionKind storageVersion, String storagePath, boolean tracksGeneration,
                            boolean createOnUpdate, List<SelectableField> selectableFields, String deprecation) {

    private static final String UNAVAILABLE_IN = "unavailable in v";

    public ResourceFacts {
        selectableFields = List.copyOf(selectableFields);
    }

    /**
     * A field selectable fields may name.
     *
     * @param path e.g. {@code spec.nodeName}
     * @param as how it reads: {@code text}, {@code bool} (absent is {@code false}) or {@code count}
     *        (absent is {@code 0})
     * @param from the field path of the stored object (in the storage version) its value is read from,
     *        when not {@code path} itself: {@code regarding.name} of {@code events.k8s.io} reads
     *        {@code involvedObject.name}, as kube's field-label conversion maps it
     */
    public record SelectableField(String path, String as, String from) {
    }

    /** Whether objects of the resource are stored (rather than computed per request). */
    public boolean stored() {
        return storageVersion != null;
    }

    /** The facts of a stored resource without special behaviours, stored as {@code storageVersion} under {@code path}. */
    public static ResourceFacts plain(GroupVersionKind storageVersion, String storagePath) {
        return new ResourceFacts(storageVersion, storagePath, false, false, List.of(), null);
    }

    /**
     * The release that removes a deprecated resource ({@code 1.25}) as its warning names it
     * ({@code unavailable in v1.25+}), "" when none is named; null when it is not deprecated.
     */
    public String removedRelease() {
        if (deprecation == null) {
            return null;
        }
        int at = deprecation.indexOf(UNAVAILABLE_IN);
        if (at < 0) {
            return "";
        }
        int end = deprecation.indexOf('+', at);
        return end < 0 ? "" : deprecation.substring(at + UNAVAILABLE_IN.length(), end);
    }
}

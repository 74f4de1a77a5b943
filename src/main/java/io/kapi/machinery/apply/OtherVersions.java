package io.kapi.machinery.apply;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersion;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.conversion.VersionConversions;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The other served versions of one kind, as structured-merge-diff's {@code Converter}: an object of
 * one version in another, and the type of each. Converting to the version an object is already in
 * returns it as it is.
 */
final class OtherVersions {

    /** For kinds served in one version: no conversion ever succeeds. */
    static final OtherVersions NONE = new OtherVersions("", () -> VersionConversions.NONE, v -> SchemaType.UNTYPED);

    private final String kind;
    private final Supplier<VersionConversions> conversions;
    private final Function<GroupVersionKind, SchemaType> types;

    /**
     * @param kind the kind, the same in every version
     * @param types the type of a kind in a version
     */
    OtherVersions(String kind, Supplier<VersionConversions> conversions, Function<GroupVersionKind, SchemaType> types) {
        this.kind = kind;
        this.conversions = conversions;
        this.types = types;
    }

    /** The type of the kind in {@code apiVersion}. */
    SchemaType type(String apiVersion) {
        return types.apply(kind(apiVersion));
    }

    /**
     * {@code object} (null for none) of {@code from} in {@code to}: itself when the versions are the
     * same; null when {@code to} is not served (or the object does not convert).
     */
    ObjectNode convert(ObjectNode object, String from, String to) {
        if (from.equals(to) || object == null) {
            return object;
        }
        try {
            return conversions.get().convert(object, kind(from), to);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private GroupVersionKind kind(String apiVersion) {
        GroupVersion gv = GroupVersion.parse(apiVersion);
        return new GroupVersionKind(gv.group(), gv.version(), kind);
    }
}

package io.kapi.machinery;

/** A kind in one version of one API group; the core group is the empty string. */
public record GroupVersionKind(String group, String version, String kind) {

    /** The {@code apiVersion} field as it appears on the wire: {@code v1} or {@code apps/v1}. */
    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    public GroupVersion groupVersion() {
        return new GroupVersion(group, version);
    }

    @Override
    public String toString() {
        return apiVersion() + ", Kind=" + kind;
    }
}

package io.kapi.machinery;

/** One version of an API group; the core group is the empty string. */
public record GroupVersion(String group, String version) {

    /** Parses {@code v1} or {@code apps/v1}. */
    public static GroupVersion parse(String apiVersion) {
        int slash = apiVersion.indexOf('/');
        return slash < 0
                ? new GroupVersion("", apiVersion)
                : new GroupVersion(apiVersion.substring(0, slash), apiVersion.substring(slash + 1));
    }

    /** {@code v1} or {@code apps/v1}. */
    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    @Override
    public String toString() {
        return apiVersion();
    }
}

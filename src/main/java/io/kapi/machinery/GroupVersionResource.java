package io.kapi.machinery;

/** A resource (plural, lower case) in one version of one API group. */
public record GroupVersionResource(String group, String version, String resource) {

    /** {@code configmaps} or {@code deployments.apps}: how kube-apiserver names a resource in messages. */
    public String qualifiedResource() {
        return group.isEmpty() ? resource : resource + "." + group;
    }
}

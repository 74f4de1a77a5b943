package io.kapi.machinery.resource;

import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.GroupVersionResource;
import java.util.List;

/**
 * One built-in (or, later, custom) resource as discovery describes it: a row of the resource table.
 *
 * @param group the API group, "" for core
 * @param version the served version
 * @param name the plural resource name, e.g. {@code deployments}
 * @param singularName e.g. {@code deployment}
 * @param kind e.g. {@code Deployment}
 * @param namespaced whether objects live in namespaces
 * @param verbs the verbs of the main resource, e.g. create, delete, deletecollection, get, list, patch, update, watch
 * @param shortNames e.g. {@code deploy}
 * @param categories e.g. {@code all}
 * @param subresources e.g. status, scale
 */
public record ApiResource(String group, String version, String name, String singularName, String kind,
                          boolean namespaced, List<String> verbs, List<String> shortNames,
                          List<String> categories, List<Subresource> subresources) {

    public GroupVersionKind gvk() {
        return new GroupVersionKind(group, version, kind);
    }

    public GroupVersionResource gvr() {
        return new GroupVersionResource(group, version, name);
    }

    public boolean supports(String verb) {
        return verbs.contains(verb);
    }

    /** The subresource called {@code name}, or null. */
    public Subresource subresource(String name) {
        for (Subresource s : subresources) {
            if (s.name().equals(name)) {
                return s;
            }
        }
        return null;
    }

    /**
     * A subresource such as {@code status} (same kind) or {@code scale} (kind Scale of autoscaling/v1).
     *
     * @param name e.g. {@code status}; discovery lists it as {@code deployments/status}
     * @param group the group of the subresource's kind ("" for core)
     * @param version the version of the subresource's kind
     * @param kind the kind read and written through it
     * @param verbs e.g. get, patch, update
     */
    public record Subresource(String name, String group, String version, String kind, List<String> verbs) {
    }
}

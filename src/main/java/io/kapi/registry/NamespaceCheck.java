package io.kapi.registry;

import io.kapi.machinery.GroupVersionResource;

/**
 * Whether objects may be created in a namespace (kube-apiserver's NamespaceLifecycle admission):
 * throws {@link io.kapi.machinery.ApiException} NotFound for a namespace that does not exist and
 * Forbidden for one being terminated.
 */
@FunctionalInterface
public interface NamespaceCheck {

    /**
     * @param resource the resource of the object being created, for the wording of the error
     * @param name the object's name
     */
    void requireActive(String namespace, GroupVersionResource resource, String name);

    NamespaceCheck NONE = (namespace, resource, name) -> { };
}

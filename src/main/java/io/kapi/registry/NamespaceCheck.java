package io.kapi.registry;

/**
 * Whether objects may be created in a namespace (kube-apiserver's NamespaceLifecycle admission):
 * throws {@link io.kapi.machinery.ApiException} NotFound for a namespace that does not exist.
 */
@FunctionalInterface
public interface NamespaceCheck {

    void requireExists(String namespace);

    NamespaceCheck NONE = namespace -> { };
}

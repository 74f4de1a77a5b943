package io.kapi.admission;

/**
 * One admission plugin, as kube's {@code admission.Interface}: a mutating one implements
 * {@link MutatingPlugin}, a validating one {@link ValidatingPlugin}, some both. Plugins are built
 * once at start ({@link AdmissionPlugins}), shared by every request, and must be thread-safe.
 */
public interface AdmissionPlugin {

    /** kube-apiserver's name of the plugin, e.g. {@code NamespaceLifecycle}. */
    String name();

    /** Whether the plugin acts on {@code operation} at all. */
    boolean handles(Operation operation);
}

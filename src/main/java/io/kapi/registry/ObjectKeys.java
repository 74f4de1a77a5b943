package io.kapi.registry;

import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.resource.ResourceFacts;
import io.kapi.machinery.resource.ResourceTable;

/**
 * Where objects live in storage, laid out as kube-apiserver lays them out in etcd:
 * {@code /registry/{path}/{namespace}/{name}} and {@code /registry/{path}/{name}}, where the path is
 * the resource table's {@code storagePath}: the plural, kube-apiserver's historical one for a few
 * built-ins ({@code services/specs}, {@code minions}, {@code ingress}), {@code group/plural} for
 * custom resources.
 *
 * <p>The versions of a resource served in several (autoscaling/v1 and v2 horizontalpodautoscalers,
 * core/v1 and events.k8s.io/v1 events) share one prefix, as in kube-apiserver.
 */
public record ObjectKeys(String prefix, boolean namespaced) {

    public static ObjectKeys of(ResourceFacts facts, boolean namespaced) {
        return new ObjectKeys("/registry/" + facts.storagePath() + "/", namespaced);
    }

    /** The keys of a built-in resource, from the resource table. */
    public static ObjectKeys of(ApiResource resource) {
        return of(ResourceTable.builtin().facts(resource), resource.namespaced());
    }

    /** The key of one object; {@code namespace} is ignored for cluster-scoped resources. */
    public String key(String namespace, String name) {
        return namespaced ? prefix + namespace + "/" + name : prefix + name;
    }

    /** The prefix of every object of a namespace, or of all objects when {@code namespace} is empty. */
    public String collection(String namespace) {
        return namespaced && namespace != null && !namespace.isEmpty() ? prefix + namespace + "/" : prefix;
    }
}

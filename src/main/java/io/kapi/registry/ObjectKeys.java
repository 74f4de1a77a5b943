package io.kapi.registry;

import io.kapi.machinery.resource.ApiResource;
import java.util.Map;

/**
 * Where objects live in storage, laid out as kube-apiserver lays them out in etcd:
 * {@code /registry/{resource}/{namespace}/{name}} and {@code /registry/{resource}/{name}}, with
 * kube-apiserver's historical prefixes for a few resources.
 *
 * <p>Resources served in several group-versions of one group (autoscaling/v1 and v2
 * horizontalpodautoscalers) share one prefix, as in kube-apiserver. The core and events.k8s.io
 * events share one in kube-apiserver too, but their schemas differ and Kapi does not convert between
 * them yet, so events.k8s.io keeps its own prefix.
 */
public record ObjectKeys(String prefix, boolean namespaced) {

    private static final Map<String, String> HISTORICAL = Map.of(
            "/services", "services/specs",
            "/nodes", "minions",
            "networking.k8s.io/ingresses", "ingress",
            "events.k8s.io/events", "events.k8s.io/events");

    public static ObjectKeys of(ApiResource resource) {
        String segment = HISTORICAL.getOrDefault(resource.group() + "/" + resource.name(), resource.name());
        return new ObjectKeys("/registry/" + segment + "/", resource.namespaced());
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

package io.kapi.apis.subresources;

import io.kapi.endpoint.handlers.Codecs;
import io.kapi.endpoint.handlers.VerbHandler;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.patch.PatchSchemas;
import io.kapi.registry.Registry;
import io.kapi.registry.ResourceStore;
import java.time.Clock;
import java.util.Map;

/**
 * The subresource handlers of this package, ready for the router: {@link #handlers()} by subresource
 * name (the resource table says which resources have which), {@link #computed()} by resource for the
 * legacy {@code bindings}, and the service-account signing {@link #keys()} whose public half
 * {@code /openid/v1/jwks} serves.
 */
public record Subresources(Map<String, VerbHandler> handlers, Map<GroupVersionResource, VerbHandler> computed,
                           ServiceAccountKeys keys) {

    /**
     * @param keys the service-account token signing key
     * @param issuer the service-account token issuer ({@code --service-account-issuer})
     * @param maxExpiration {@code --service-account-max-token-expiration}, or null
     */
    public static Subresources create(Registry registry, Codecs codecs, PatchSchemas schemas, ServiceAccountKeys keys,
                                      String issuer, java.time.Duration maxExpiration, Clock clock) {
        ResourceStore pods = store(registry, "", "v1", "pods");
        PodBinding binding = new PodBinding(codecs, pods, clock);
        NoBackend noBackend = new NoBackend(registry);
        Map<String, VerbHandler> handlers = Map.of(
                "binding", binding,
                "eviction", new PodEviction(codecs, pods, store(registry, "policy", "v1", "poddisruptionbudgets"), clock),
                "ephemeralcontainers", new EphemeralContainers(codecs, schemas),
                "token", new ServiceAccountToken(codecs, registry, keys, issuer, maxExpiration, clock),
                "approval", new CsrApproval(codecs, schemas, clock),
                "log", noBackend,
                "exec", noBackend,
                "attach", noBackend,
                "portforward", noBackend,
                "proxy", noBackend);
        return new Subresources(handlers, Map.of(new GroupVersionResource("", "v1", "bindings"), binding), keys);
    }

    private static ResourceStore store(Registry registry, String group, String version, String plural) {
        return registry.resource(group, version, plural).flatMap(registry::store)
                .orElseThrow(() -> ApiException.internal("no store for " + plural));
    }
}

package io.kapi.aggregator;

import io.kapi.client.LocalClient;
import io.kapi.client.ResourceClient;
import io.kapi.endpoint.RestHandler;
import io.kapi.endpoint.discovery.ExternalVersion;
import io.kapi.health.PostStartHook;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.GroupVersion;
import io.kapi.metrics.AdmissionMetrics;
import io.kapi.registry.Registry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * The aggregation layer (kube-aggregator): APIServices that name a Service have their group-version's
 * requests {@linkplain #proxy() proxied} to that Service's server, their {@code Available} condition kept
 * by {@linkplain #controllers controllers}, and their resources {@linkplain #externalVersions() listed} by
 * discovery beside the built-in ones. APIServices without a Service (the local ones) change nothing here.
 */
public final class Aggregator implements AutoCloseable {

    private final AtomicReference<Routes> routes = new AtomicReference<>(Routes.NONE);
    private final Registry registry;
    private final Backends backends;
    private final ServiceLocator locator;
    private final ProxyHandler proxy;
    private volatile AggregatorController controller;
    private volatile LocalAvailability localAvailability;

    private Aggregator(AggregatorConfig config, Registry registry) {
        this.registry = registry;
        this.backends = Backends.of(config);
        this.locator = ServiceLocator.of(config.endpointRouting(), registry);
        this.proxy = new ProxyHandler(routes::get, locator, backends);
    }

    /** @throws IllegalArgumentException when the proxy client certificate or key cannot be used */
    public static Aggregator create(AggregatorConfig config, Registry registry) {
        return new Aggregator(config, registry);
    }

    /** The proxy: first in the delegation chain; passes (null) on what no APIService routes. */
    public RestHandler proxy() {
        return proxy;
    }

    /** The aggregated group-versions as discovery lists them, in kube's order; the same list until they change. */
    public List<ExternalVersion> externalVersions() {
        return routes.get().discovery();
    }

    /**
     * The aggregated servers' OpenAPI v3 documents by {@code apis/<group>/<version>}, for {@code /openapi/v3};
     * the same map until they change.
     */
    public Map<String, String> openApiV3() {
        return routes.get().openApiV3();
    }

    /**
     * The aggregated servers' OpenAPI v2 documents by {@code apis/<group>/<version>} of the APIService they were
     * read for, for {@code /openapi/v2}; the same map until they change.
     */
    public Map<String, String> openApiV2() {
        return routes.get().openApiV2();
    }

    /**
     * The controllers' post-start hooks, under kube-aggregator's names: the informers, the local and remote
     * availability controllers, the routes' registration and the wait for the first routes.
     *
     * @param apiserver writes APIService status as kube-apiserver itself (the API the proxy is part of)
     * @param servedHere the group-versions this server serves (never proxied)
     * @param metrics where the availability of APIServices is shown ({@code aggregator_unavailable_apiservice})
     */
    public List<PostStartHook> controllers(LocalClient apiserver, SharedInformers informers,
                                           Predicate<GroupVersion> servedHere, Clock clock, AdmissionMetrics metrics) {
        ResourceClient apiServices = apiserver.resource(AggregatorController.API_SERVICES);
        AggregatorController c = new AggregatorController(registry, informers, apiServices,
                new Availability(registry, locator, backends), servedHere, clock, routes, metrics);
        LocalAvailability local = new LocalAvailability(informers, apiServices, clock);
        controller = c;
        localAvailability = local;
        List<PostStartHook> hooks = new ArrayList<>(c.hooks());
        hooks.add(1, local);
        return hooks;
    }

    @Override
    public void close() {
        AggregatorController c = controller;
        if (c != null) {
            c.close();
        }
        LocalAvailability local = localAvailability;
        if (local != null) {
            local.close();
        }
        backends.close();
    }
}

package io.kapi.aggregator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.client.ResourceClient;
import io.kapi.health.PostStartHook;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Conditions;
import io.kapi.machinery.GroupVersion;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.registry.ListOptions;
import io.kapi.registry.Registry;
import io.kapi.registry.WatchedPasses;
import io.kapi.registry.ResourceStore;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * kube-aggregator's remote availability and discovery controllers in one loop: on every APIService event,
 * and every few seconds, each APIService that names a Service is {@linkplain Availability checked}, its
 * {@code Available} condition written when it changed (the transition time kept while the status stays),
 * and the {@link Routes} the proxy and discovery read are replaced. A route whose group-version this
 * server serves itself is not taken: a built-in API cannot be sent elsewhere by mistake.
 */
final class AggregatorController implements PostStartHook, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(AggregatorController.class.getName());
    static final GroupVersionResource API_SERVICES =
            new GroupVersionResource("apiregistration.k8s.io", "v1", "apiservices");
    /** Resync while some APIService is unavailable: a Service or endpoint made later is seen soon. */
    private static final Duration RETRY = Duration.ofSeconds(2);
    private static final Duration RESYNC = Duration.ofSeconds(10);

    private final Registry registry;
    private final ResourceClient apiServices;
    private final Availability availability;
    private final Predicate<GroupVersion> servedHere;
    private final Clock clock;
    private final AtomicReference<Routes> routes;
    private volatile Thread worker;

    AggregatorController(Registry registry, ResourceClient apiServices, Availability availability,
                         Predicate<GroupVersion> servedHere, Clock clock, AtomicReference<Routes> routes) {
        this.registry = registry;
        this.apiServices = apiServices;
        this.availability = availability;
        this.servedHere = servedHere;
        this.clock = clock;
        this.routes = routes;
    }

    @Override
    public String name() {
        return "apiservice-status-remote-available-controller";
    }

    @Override
    public void run() {
        if (worker == null) {
            worker = Thread.ofVirtual().name("apiservice-availability").start(this::loop);
        }
    }

    private void loop() {
        WatchedPasses.run(this::store, () -> sync() ? RESYNC : RETRY, "APIService availability", LOG);
    }

    /** One pass over every APIService; true when every routed one is available. */
    boolean sync() {
        Map<GroupVersion, ApiServiceRoute> found = new HashMap<>();
        Map<GroupVersion, ObjectNode> resources = new HashMap<>();
        Map<String, String> openApi = new HashMap<>();
        boolean allAvailable = true;
        for (ObjectNode apiService : store().list("", ListOptions.ALL).items()) {
            ApiServiceRoute route = ApiServiceRoute.of(apiService).orElse(null);
            if (route == null || servedHere.test(route.groupVersion())) {
                continue;
            }
            Availability.Result result = availability.check(route);
            boolean available = "True".equals(result.status());
            allAvailable &= available;
            if (writeCondition(apiService, result)) {
                route = route.withAvailable(available);
            }
            found.put(route.groupVersion(), route);
            if (result.resourceList() != null) {
                resources.put(route.groupVersion(), result.resourceList());
            }
            if (result.openApiV3() != null) {
                openApi.put("apis/" + route.groupVersion().group() + "/" + route.groupVersion().version(),
                        result.openApiV3());
            }
        }
        availability.retain(found.keySet());
        Routes next = Routes.of(found, resources, openApi);
        if (!next.equals(routes.get())) {
            routes.set(next);
        }
        return allAvailable;
    }

    /** Writes the condition when it differs from the stored one; true when the stored one now says it. */
    private boolean writeCondition(ObjectNode apiService, Availability.Result result) {
        ObjectNode changed = apiService.deepCopy();
        if (!Conditions.set(changed, "Available", result.status(), result.reason(), result.message(), clock.instant())) {
            return true;
        }
        try {
            apiServices.update(changed, "status");
            if (ApiServiceRoute.availableCondition(apiService) != "True".equals(result.status())) {
                LOG.log(Level.INFO, "APIService {0} Available={1}: {2}", changed.path("metadata").path("name").asText(),
                        result.status(), result.message());
            }
            return true;
        } catch (ApiException e) {
            LOG.log(Level.DEBUG, "APIService status not written yet: {0}", e.getMessage());
            return false;
        }
    }

    private ResourceStore store() {
        return registry.store(API_SERVICES).orElseThrow();
    }

    @Override
    public void close() {
        Thread t = worker;
        if (t != null) {
            t.interrupt();
        }
    }
}

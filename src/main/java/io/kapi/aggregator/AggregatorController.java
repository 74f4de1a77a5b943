package io.kapi.aggregator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.client.ResourceClient;
import io.kapi.health.PostStartHook;
import io.kapi.informers.Informer;
import io.kapi.informers.PassController;
import io.kapi.informers.QueueController;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.ApiServiceConditions;
import io.kapi.machinery.Conditions;
import io.kapi.machinery.GroupVersion;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import io.kapi.metrics.AdmissionMetrics;
import io.kapi.registry.ListOptions;
import io.kapi.registry.Registry;
import io.kapi.registry.ResourceStore;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * kube-aggregator's APIService registration, remote availability and discovery controllers in one:
 * <ul>
 *   <li>every APIService that names a Service has a {@link Routes route} as soon as it is seen, available
 *       as its stored {@code Available} condition says (so an APIService not checked yet answers 503, as
 *       kube's proxy handler does until the condition is True);</li>
 *   <li>{@value #WORKERS} workers {@linkplain Availability check} APIServices in parallel, as kube's
 *       controller runs 5: each check is bounded (5 s), so a slow backend holds one worker, never the
 *       checks of the others. A checked APIService's condition is written when it changed (the transition
 *       time kept while the status stays), and what its backend listed goes to discovery;</li>
 *   <li>an APIService is queued when it is new or its spec changed, and every one again every 10 s (2 s
 *       while some is unavailable), as kube's resync does.</li>
 * </ul>
 * A route whose group-version this server serves itself is not taken: a built-in API cannot be sent
 * elsewhere by mistake.
 */
final class AggregatorController implements PostStartHook, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(AggregatorController.class.getName());
    static final GroupVersionResource API_SERVICES =
            new GroupVersionResource("apiregistration.k8s.io", "v1", "apiservices");
    private static final GroupVersionResource SERVICES = new GroupVersionResource("", "v1", "services");
    private static final GroupVersionResource ENDPOINT_SLICES =
            new GroupVersionResource("discovery.k8s.io", "v1", "endpointslices");
    private static final Duration PASS_SPACING = Duration.ofMillis(10);
    /** kube-aggregator's {@code availableController.Run(5, ...)}. */
    static final int WORKERS = 5;
    /** Resync while some APIService is unavailable: a Service or endpoint made later is seen soon. */
    private static final Duration RETRY = Duration.ofSeconds(2);
    private static final Duration RESYNC = Duration.ofSeconds(10);
    private static final Duration FIRST_SYNC = Duration.ofSeconds(30);

    /** What the last check of an APIService read from its backend, for discovery and OpenAPI. */
    private record Checked(GroupVersion groupVersion, ObjectNode resourceList, Availability.OpenApi openApi) {
    }

    private final Registry registry;
    private final AdmissionMetrics metrics;
    private final ResourceClient apiServices;
    private final Availability availability;
    private final Predicate<GroupVersion> servedHere;
    private final Clock clock;
    private final AtomicReference<Routes> routes;
    /** Checks one APIService at a time per name, {@link #WORKERS} at once. */
    private final QueueController checks;
    /** Publishes the routes and queues what is due, on changes of APIServices and what they point at. */
    private final PassController passes;
    private final SharedInformers informers;
    private final Map<String, Checked> checked = new ConcurrentHashMap<>();
    /** Counted down by the first pass that ran after the informers listed. */
    private final CountDownLatch firstPass = new CountDownLatch(1);
    /** Counted down once every APIService routed at the first such pass was checked (its discovery read) or went. */
    private final CountDownLatch discoverySynced = new CountDownLatch(1);
    /** The APIServices of the first pass after the informers listed not checked yet; null before that pass. */
    private volatile Set<String> discoveryPending;
    /** The spec each APIService had when last queued: a change queues it again. Loop thread only. */
    private final Map<String, JsonNode> queuedSpecs = new HashMap<>();
    private long nextResync = System.nanoTime();
    private boolean started;

    AggregatorController(Registry registry, SharedInformers informers, ResourceClient apiServices,
                         Availability availability, Predicate<GroupVersion> servedHere, Clock clock,
                         AtomicReference<Routes> routes, AdmissionMetrics metrics) {
        this.metrics = metrics;
        this.registry = registry;
        this.informers = informers;
        this.checks = new QueueController("apiservice-availability", WORKERS, this::check);
        this.passes = new PassController("apiservice-routes", PASS_SPACING, this::pass);
        this.apiServices = apiServices;
        this.availability = availability;
        this.servedHere = servedHere;
        this.clock = clock;
        this.routes = routes;
    }

    /** The remote availability controller: starts the checks, which the passes queue. */
    @Override
    public String name() {
        return "apiservice-status-remote-available-controller";
    }

    @Override
    public void run() {
        checks.start();
    }

    /**
     * The hooks of the controller's parts, under kube-aggregator's names: its informers started and listed
     * ({@code start-kube-aggregator-informers}), the remote availability checks (this), the routes published on
     * every change ({@code apiservice-registration-controller}), the wait for the routes of the APIServices stored
     * at start ({@code apiservice-wait-for-first-sync}) and for their discovery
     * ({@code apiservice-discovery-controller}).
     */
    List<PostStartHook> hooks() {
        return List.of(PostStartHook.of("start-kube-aggregator-informers", this::startInformers), this,
                PostStartHook.of("apiservice-registration-controller", this::startPasses),
                PostStartHook.of("apiservice-wait-for-first-sync", this::awaitFirstPass),
                PostStartHook.of("apiservice-discovery-controller", this::awaitDiscovery));
    }

    /** Asks for the shared informers of the APIServices, Services and EndpointSlices, and waits for their lists. */
    private void startInformers() throws InterruptedException {
        for (Informer informer : informers()) {
            if (!informer.awaitSynced(FIRST_SYNC)) {
                throw new IllegalStateException("the informer of " + informer.resource() + " has not listed yet");
            }
        }
    }

    private List<Informer> informers() {
        return List.of(informers.informer(API_SERVICES), informers.informer(SERVICES),
                informers.informer(ENDPOINT_SLICES));
    }

    /** Starts the passes on changes of the APIServices, Services and EndpointSlices, as kube's controllers watch. */
    private synchronized void startPasses() {
        if (started) {
            return;
        }
        started = true;
        passes.watching(informers());
        passes.start();
    }

    /**
     * Waits until the discovery of every APIService routed at start was read once (or its check failed, which
     * leaves it out of discovery as kube marks it stale): {@code /apis} lists the aggregated groups from then on.
     */
    private void awaitDiscovery() throws InterruptedException {
        awaitFirstPass();
        if (!discoverySynced.await(FIRST_SYNC.toNanos(), TimeUnit.NANOSECONDS)) {
            throw new IllegalStateException("the aggregated discovery of " + discoveryPending + " is not read yet");
        }
    }

    /** Waits for a pass after the informers listed: the routes of every APIService stored at start are published. */
    private void awaitFirstPass() throws InterruptedException {
        if (!firstPass.await(FIRST_SYNC.toNanos(), TimeUnit.NANOSECONDS)) {
            throw new IllegalStateException("the APIService routes are not published yet");
        }
    }

    /** On every change and resync: routes published, new, changed or due APIServices queued for a check. */
    private void pass() {
        boolean listed = informers().stream().allMatch(Informer::synced);
        List<ObjectNode> all = publish();
        long now = System.nanoTime();
        boolean resync = now - nextResync >= 0;
        Map<String, JsonNode> seen = new HashMap<>();
        boolean allAvailable = true;
        for (ObjectNode apiService : all) {
            String name = ObjectMeta.of(apiService).name();
            JsonNode spec = apiService.path("spec");
            seen.put(name, spec);
            if (routed(apiService).isEmpty()) {
                continue;
            }
            allAvailable &= ApiServiceConditions.isAvailable(apiService);
            if (resync || !spec.equals(queuedSpecs.get(name))) {
                checks.queue().add(name);
            }
        }
        queuedSpecs.clear();
        queuedSpecs.putAll(seen);
        if (listed) {
            if (discoveryPending == null) {
                Set<String> routedNow = ConcurrentHashMap.newKeySet();
                for (ObjectNode apiService : all) {
                    String name = ObjectMeta.of(apiService).name();
                    if (routed(apiService).isPresent() && !checked.containsKey(name)) { // not checked meanwhile
                        routedNow.add(name);
                    }
                }
                discoveryPending = routedNow;
            }
            discoveryPending.retainAll(seen.keySet());
            discoveryChecked(null);
            firstPass.countDown();
        }
        for (String gone : List.copyOf(checked.keySet())) {
            if (!seen.containsKey(gone)) {
                checked.remove(gone);
                metrics.apiServiceGone(gone);
            }
        }
        if (resync) {
            nextResync = now + (allAvailable ? RESYNC : RETRY).toNanos();
        }
        passes.triggerAfter(Duration.ofNanos(Math.max(nextResync - now, 0)));
    }

    /** Checks one APIService (as stored now), writes its condition, and publishes what it found. */
    private void check(String name) {
        Optional<ObjectNode> apiService = store().find("", name);
        Optional<ApiServiceRoute> route = apiService.flatMap(this::routed);
        if (route.isEmpty()) {
            checked.remove(name);
            discoveryChecked(name);
            return;
        }
        Availability.Result result = availability.check(route.get());
        checked.put(name, new Checked(route.get().groupVersion(), result.resourceList(), result.openApi()));
        writeCondition(apiService.get(), result);
        publish();
        discoveryChecked(name);
    }

    /** Notes that {@code name} (if not null) was checked; counts the discovery down when none of the first is left. */
    private void discoveryChecked(String name) {
        Set<String> pending = discoveryPending;
        if (pending == null) {
            return;
        }
        if (name != null) {
            pending.remove(name);
        }
        if (pending.isEmpty()) {
            discoverySynced.countDown();
        }
    }

    private Optional<ApiServiceRoute> routed(ObjectNode apiService) {
        return ApiServiceRoute.of(apiService).filter(r -> !servedHere.test(r.groupVersion()));
    }

    /**
     * Replaces the routes with those of the APIServices stored now, and what their last checks read.
     *
     * @return the APIServices stored now
     */
    private synchronized List<ObjectNode> publish() {
        List<ObjectNode> all = store().list("", ListOptions.ALL).items();
        Map<GroupVersion, ApiServiceRoute> found = new HashMap<>();
        Map<GroupVersion, ObjectNode> resources = new HashMap<>();
        Map<String, String> openApiV3 = new HashMap<>();
        Map<String, String> openApiV2 = new HashMap<>();
        for (ObjectNode apiService : all) {
            ApiServiceRoute route = routed(apiService).orElse(null);
            if (route == null) {
                continue;
            }
            found.put(route.groupVersion(), route);
            Checked c = checked.get(route.name());
            if (c == null || !c.groupVersion().equals(route.groupVersion())) {
                continue;
            }
            if (c.resourceList() != null) {
                resources.put(route.groupVersion(), c.resourceList());
            }
            String key = "apis/" + route.groupVersion().group() + "/" + route.groupVersion().version();
            if (c.openApi().v3() != null) {
                openApiV3.put(key, c.openApi().v3());
            }
            if (c.openApi().v2() != null) {
                openApiV2.put(key, c.openApi().v2());
            }
        }
        availability.retain(found.keySet());
        Routes next = Routes.of(found, resources, openApiV3, openApiV2);
        if (!next.equals(routes.get())) {
            routes.set(next);
        }
        return all;
    }

    /** Writes the condition when it differs from the stored one. */
    private void writeCondition(ObjectNode apiService, Availability.Result result) {
        ObjectNode changed = apiService.deepCopy();
        String name = ObjectMeta.of(apiService).name();
        boolean available = "True".equals(result.status());
        metrics.apiService(name, available); // on every check, as kube's controller sets its gauge on every sync
        if (!Conditions.set(changed, "Available", result.status(), result.reason(), result.message(), clock.instant())) {
            return;
        }
        try {
            apiServices.update(changed, "status");
            if (!available && ApiServiceConditions.isAvailable(apiService)) {
                metrics.apiServiceBecameUnavailable(name, result.reason());
            }
            if (ApiServiceConditions.isAvailable(apiService) != "True".equals(result.status())) {
                LOG.log(Level.INFO, "APIService {0} Available={1}: {2}", changed.path("metadata").path("name").asText(),
                        result.status(), result.message());
            }
        } catch (ApiException e) {
            LOG.log(Level.DEBUG, "APIService status not written yet: {0}", e.getMessage());
        }
    }

    private ResourceStore store() {
        return registry.store(API_SERVICES).orElseThrow();
    }

    @Override
    public synchronized void close() {
        passes.close();
        checks.close();
    }
}

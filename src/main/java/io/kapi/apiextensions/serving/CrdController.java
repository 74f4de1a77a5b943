package io.kapi.apiextensions.serving;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Conditions;
import io.kapi.apiextensions.Crd;
import io.kapi.client.LocalClient;
import io.kapi.client.ResourceClient;
import io.kapi.health.PostStartHook;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.DeepStack;
import io.kapi.machinery.GroupVersion;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import io.kapi.registry.DeleteOptions;
import io.kapi.registry.ListOptions;
import io.kapi.registry.Registry;
import io.kapi.informers.PassController;
import io.kapi.informers.SharedInformers;
import io.kapi.registry.ResourceDefinition;
import io.kapi.registry.ResourceStore;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The apiextensions-apiserver's controllers in one loop: naming (accepted names, {@code NamesAccepted}),
 * establishing ({@code Established}), serving (the custom resource versions added to and removed from the
 * {@link Registry} as CRDs come, change and go), nonStructuralSchema and apiApproval ({@link SpecConditions}),
 * storage-version tracking ({@code status.storedVersions}) and finalizing (a terminating CRD's custom resources
 * deleted, then its API removed and its finalizer dropped).
 *
 * <p>The API is served before {@code Established=True} is written, so a client that waited for the
 * condition finds the resource. Every pass reconciles every CRD (level-triggered); a pass runs on each
 * change the CRDs' shared informer reports, and a second after a pass that left work (instances still
 * being deleted, a failed status write), from the post-start hook on.
 * Each served group-version also gets its local APIService ({@link CrdApiServices}).
 */
public final class CrdController implements PostStartHook, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(CrdController.class.getName());
    static final GroupVersionResource CRDS =
            new GroupVersionResource("apiextensions.k8s.io", "v1", "customresourcedefinitions");
    /** How soon a pass that left work (instances still going, a status write that failed) is run again. */
    private static final Duration AGAIN = Duration.ofSeconds(1);
    private static final Duration SPACING = Duration.ofMillis(10);
    private static final Duration FIRST_LIST = Duration.ofSeconds(30);

    /** What is served for one CRD: the state it was built from, and its resources. */
    private record Installed(String key, List<GroupVersionResource> resources) {
    }

    private final Registry registry;
    private final ResourceClient crds;
    private final LocalClient client;
    private final CustomResourceVersions versions;
    private final Clock clock;
    private final Map<String, Installed> installed = new HashMap<>();
    private final CrdApiServices apiServices;
    /** The group-versions whose APIService this controller made sure of. */
    private final Set<GroupVersion> announced = new HashSet<>();
    private final PassController passes;
    private final SharedInformers informers;
    /** Whether the pass under way left work for a later one. */
    private boolean unfinished;
    private boolean watching;

    /** @param client writes as kube-apiserver itself (CRD status, custom resource deletion) */
    public CrdController(Registry registry, SharedInformers informers, LocalClient client,
                         CustomResourceVersions versions, Clock clock) {
        this.registry = registry;
        this.informers = informers;
        this.passes = new PassController("crd-controller", SPACING, this::syncAll);
        this.client = client;
        this.crds = client.resource(CRDS);
        this.versions = versions;
        this.clock = clock;
        this.apiServices = new CrdApiServices(client.resource("apiregistration.k8s.io", "v1", "apiservices"));
    }

    /** Serves the CRDs that exist at start: the server is not ready before they are served. */
    @Override
    public String name() {
        return "crd-informer-synced";
    }

    @Override
    public void run() {
        syncAll();
    }

    /**
     * The hooks of the controller's parts, under the apiextensions-apiserver's names: its informer started and
     * listed ({@code start-apiextensions-informers}), the passes on every change of a CRD
     * ({@code start-apiextensions-controllers}), and the CRDs of the start served ({@code crd-informer-synced}, this).
     */
    public List<PostStartHook> hooks() {
        return List.of(PostStartHook.of("start-apiextensions-informers", () -> {
            if (!informers.informer(CRDS).awaitSynced(FIRST_LIST)) {
                throw new IllegalStateException("the CustomResourceDefinition informer has not listed yet");
            }
        }), PostStartHook.of("start-apiextensions-controllers", this::startPasses), this);
    }

    /** Follows the CRDs' changes (their shared informer), from a first pass on. */
    private synchronized void startPasses() {
        if (!watching) {
            watching = true;
            passes.watching(informers.informer(CRDS));
            passes.start();
        }
    }

    private ResourceStore store() {
        return registry.store(CRDS).orElseThrow();
    }

    /** One reconciling pass over every CRD; also serves what exists at start. */
    public synchronized void syncAll() {
        unfinished = false;
        List<Crd> all = new ArrayList<>();
        for (ObjectNode o : store().list("", ListOptions.ALL).items()) {
            all.add(new Crd(o.deepCopy()));
        }
        List<String> names = new ArrayList<>();
        for (Crd crd : all) {
            names.add(crd.name());
            try {
                // a CRD whose schema nests deep is compiled (structural schema, CEL, OpenAPI) on a deep stack
                DeepStack.callIfDeep(() -> {
                    sync(crd, all);
                    return null;
                }, crd.object());
            } catch (ApiException e) {
                LOG.log(Level.DEBUG, "CRD {0} not reconciled yet: {1}", crd.name(), e.getMessage());
                unfinished = true;
            }
        }
        for (String gone : new ArrayList<>(installed.keySet())) {
            if (!names.contains(gone)) {
                registry.remove(installed.remove(gone).resources());
            }
        }
        announce();
        if (unfinished) {
            passes.triggerAfter(AGAIN);
        }
    }

    /** Local APIServices for the group-versions served now; those of group-versions no longer served go. */
    private void announce() {
        Set<GroupVersion> served = new HashSet<>();
        installed.values().forEach(i -> i.resources().forEach(r -> served.add(new GroupVersion(r.group(), r.version()))));
        Set<GroupVersion> added = new HashSet<>(served);
        added.removeAll(announced);
        Set<GroupVersion> ensured = apiServices.ensure(added);
        for (GroupVersion gv : new ArrayList<>(announced)) {
            if (!served.contains(gv)) {
                apiServices.remove(gv);
                announced.remove(gv);
            }
        }
        announced.addAll(ensured);
    }

    private void sync(Crd crd, List<Crd> all) {
        if (crd.deleting()) {
            finalizeCrd(crd);
            return;
        }
        ObjectNode desired = crd.object().deepCopy();
        CrdNames.Decision names = CrdNames.decide(crd, all);
        desired.with("status").set("acceptedNames", names.accepted());
        var now = clock.instant();
        Conditions.set(desired, "NamesAccepted", names.ok() ? "True" : "False", names.reason(), names.message(), now);
        Crd next = new Crd(desired);
        if (names.ok() || crd.isTrue("Established")) {
            Conditions.set(desired, "Established", "True", "InitialNamesAccepted",
                    "the initial names have been accepted", now);
        } else {
            Conditions.set(desired, "Established", "False", "NotAccepted", "not all names are accepted", now);
        }
        SpecConditions.apply(desired, crd, now);
        if (next.isTrue("Established") && CrdNames.present(next.acceptedNames())) {
            serve(next, false);
        }
        if (!desired.path("status").equals(crd.object().path("status"))) {
            crds.update(desired, "status");
        }
    }

    /** Serves the CRD's versions as they are now (again, when anything they are made of changed). */
    private void serve(Crd crd, boolean terminating) {
        String key = crd.spec().toString() + crd.acceptedNames() + crd.storedVersions() + terminating;
        Installed current = installed.get(crd.name());
        if (current != null && current.key().equals(key)) {
            return;
        }
        List<ResourceDefinition> definitions = versions.of(crd, terminating);
        List<GroupVersionResource> gvrs = definitions.stream().map(d -> d.api().gvr()).toList();
        if (current != null) {
            List<GroupVersionResource> dropped = new ArrayList<>(current.resources());
            dropped.removeAll(gvrs);
            if (!dropped.isEmpty()) {
                registry.remove(dropped);
            }
        }
        registry.add(definitions);
        installed.put(crd.name(), new Installed(key, gvrs));
        LOG.log(Level.DEBUG, "serving {0}: {1}", crd.name(), gvrs);
    }

    /**
     * kube's finalizing controller: creates are refused, every custom resource is deleted (those with
     * finalizers of their own keep the CRD waiting), then the API goes and the finalizer is removed.
     */
    private void finalizeCrd(Crd crd) {
        if (!crd.hasFinalizer(Crd.FINALIZER)) {
            return;
        }
        Installed current = installed.get(crd.name());
        if (current != null && !current.resources().isEmpty()) {
            serve(crd, true);
            // the storage version when it is served: its reads convert nothing (no webhook call)
            List<GroupVersionResource> served = installed.get(crd.name()).resources();
            GroupVersionResource gvr = served.stream().filter(r -> r.version().equals(crd.storageVersion()))
                    .findFirst().orElse(served.getFirst());
            if (!deleteInstances(crd, gvr)) {
                return;
            }
            registry.remove(installed.remove(crd.name()).resources());
        }
        ObjectNode desired = crd.object().deepCopy();
        ArrayNode finalizers = desired.with("metadata").withArray("finalizers");
        for (int i = finalizers.size() - 1; i >= 0; i--) {
            if (finalizers.get(i).asText().equals(Crd.FINALIZER)) {
                finalizers.remove(i);
            }
        }
        crds.update(desired);
    }

    /** Deletes the CRD's objects; true once none is left. */
    private boolean deleteInstances(Crd crd, GroupVersionResource gvr) {
        ResourceStore store = registry.store(gvr).orElse(null);
        if (store == null) {
            return true;
        }
        List<ObjectNode> items = store.list("", ListOptions.ALL).items();
        if (items.isEmpty()) {
            return true;
        }
        ObjectNode status = crd.object().deepCopy();
        if (Conditions.set(status, "Terminating", "True", "InstanceDeletionInProgress",
                "CustomResource deletion is in progress", clock.instant())) {
            crds.update(status, "status");
        }
        unfinished = true;
        ResourceClient resources = client.resource(gvr);
        for (JsonNode item : items) {
            ObjectMeta meta = ObjectMeta.of((ObjectNode) item);
            if (meta.deletionTimestamp().isEmpty()) {
                try {
                    resources.delete(meta.namespace(), meta.name(), DeleteOptions.DEFAULT);
                } catch (ApiException e) {
                    LOG.log(Level.DEBUG, "deleting {0}/{1}: {2}", meta.namespace(), meta.name(), e.getMessage());
                }
            }
        }
        return false;
    }

    @Override
    public void close() {
        passes.close();
    }
}

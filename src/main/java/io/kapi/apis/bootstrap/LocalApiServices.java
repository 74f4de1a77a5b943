package io.kapi.apis.bootstrap;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.health.HealthCheck;
import io.kapi.health.NamedCheck;
import io.kapi.health.PostStartHook;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.ApiServiceConditions;
import io.kapi.machinery.GroupVersion;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import io.kapi.registry.DeleteOptions;
import io.kapi.registry.Registry;
import io.kapi.registry.ResourceStore;
import io.kapi.client.ResourceClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The post-start hook {@code kube-apiserver-autoregistration}: a local APIService for every
 * built-in group-version this server serves ({@code v1.}, {@code v1.apps}, ...), as kube-aggregator's
 * autoregister controller makes them at start, with kube's {@code groupPriorityMinimum} and
 * {@code versionPriority} and the label {@code kube-aggregator.kubernetes.io/automanaged: onstart}; being
 * local, each is created {@code Available=True}, reason {@code Local} (the APIService strategy), and kept so by
 * the local availability controller, not by this hook.
 *
 * <p>Reconciled at every start, safe with several replicas: a missing one is created, one whose spec
 * drifted gets kube's spec back, one marked {@code onstart} for a group-version no longer served is
 * deleted; an APIService without the automanaged label belongs to its creator and is left alone.
 */
final class LocalApiServices implements PostStartHook {

    private static final System.Logger LOG = System.getLogger(LocalApiServices.class.getName());
    static final String AUTOMANAGED = "kube-aggregator.kubernetes.io/automanaged";
    private static final String PRIORITIES = "/apis/bootstrap/apiservice-priorities.json";
    private static final GroupVersionResource API_SERVICES =
            new GroupVersionResource("apiregistration.k8s.io", "v1", "apiservices");

    /** kube's priorities of one group-version. */
    record Priority(int group, int version) {
    }

    private final ResourceClient apiServices;
    private final Registry registry;
    private final Collection<ResourceStore> served;
    private volatile Set<String> pending;

    LocalApiServices(ResourceClient apiServices, Registry registry) {
        this.apiServices = apiServices;
        this.registry = registry;
        this.served = registry.stores();
    }

    @Override
    public String name() {
        return "kube-apiserver-autoregistration";
    }

    /**
     * The check {@code autoregister-completion}, kube's boot-sequence check: fails, naming them, until every
     * APIService this hook makes has been seen available once; from then on it passes (a later delete or
     * outage is the availability controllers' to report, not the boot sequence's).
     */
    HealthCheck completion() {
        return new NamedCheck("autoregister-completion", () -> {
            Set<String> waiting = pending();
            if (waiting.isEmpty()) {
                return;
            }
            ResourceStore store = registry.store(API_SERVICES).orElse(null);
            if (store != null) {
                waiting.removeIf(name -> store.findCachedShared("", name)
                        .filter(ApiServiceConditions::isAvailable).isPresent());
            }
            if (!waiting.isEmpty()) {
                throw new IllegalStateException("missing APIService: " + new TreeSet<>(waiting));
            }
        });
    }

    /** The names not seen available yet: at first those of the served group-versions' APIServices. */
    private Set<String> pending() {
        Set<String> names = pending;
        if (names == null) {
            synchronized (this) {
                if (pending == null) {
                    pending = ConcurrentHashMap.newKeySet();
                    pending.addAll(wanted(servedGroupVersions(), priorities()).keySet());
                }
                names = pending;
            }
        }
        return names;
    }

    @Override
    public void run() {
        Map<String, ObjectNode> wanted = wanted(servedGroupVersions(), priorities());
        Map<String, ObjectNode> existing = new LinkedHashMap<>();
        for (ObjectNode o : apiServices.list("")) {
            existing.put(ObjectMeta.of(o).name(), o);
        }
        List<Runnable> writes = new ArrayList<>();
        for (ObjectNode apiService : wanted.values()) {
            ObjectNode current = existing.get(ObjectMeta.of(apiService).name());
            if (current == null || drifted(current, apiService)) {
                writes.add(() -> ensure(apiService));
            }
        }
        existing.forEach((name, o) -> {
            if ("onstart".equals(o.path("metadata").path("labels").path(AUTOMANAGED).asText())
                    && !wanted.containsKey(name)) {
                writes.add(() -> deleteQuietly(name));
            }
        });
        // all at once: a few dozen writes, which one group commit serves
        Concurrently.run("apiservice-registration", writes, writes.size());
    }

    /** Whether an existing APIService needs a write: an onstart one with another spec. */
    private static boolean drifted(ObjectNode current, ObjectNode wanted) {
        return "onstart".equals(current.path("metadata").path("labels").path(AUTOMANAGED).asText())
                && !current.path("spec").equals(wanted.path("spec"));
    }

    /** The APIService of each served group-version kube has priorities for, by name. */
    static Map<String, ObjectNode> wanted(Set<GroupVersion> served, Map<GroupVersion, Priority> priorities) {
        Map<String, ObjectNode> wanted = new LinkedHashMap<>();
        for (GroupVersion gv : served) {
            Priority p = priorities.get(gv);
            if (p != null) {
                ObjectNode apiService = apiService(gv, p);
                wanted.put(ObjectMeta.of(apiService).name(), apiService);
            }
        }
        return wanted;
    }

    private Set<GroupVersion> servedGroupVersions() {
        Set<GroupVersion> gvs = new TreeSet<>(Comparator.comparing(GroupVersion::apiVersion));
        for (ResourceStore store : served) {
            gvs.add(new GroupVersion(store.resource().group(), store.resource().version()));
        }
        return gvs;
    }

    private void ensure(ObjectNode wanted) {
        String name = ObjectMeta.of(wanted).name();
        if (Stores.createdObject(apiServices, wanted) != null) {
            LOG.log(System.Logger.Level.DEBUG, "created APIService {0}", name);
        } else {
            updateSpec(name, wanted);
        }
    }

    private void updateSpec(String name, ObjectNode wanted) {
        Stores.update(apiServices, "", name, current -> {
            if (!"onstart".equals(current.path("metadata").path("labels").path(AUTOMANAGED).asText())
                    || current.path("spec").equals(wanted.path("spec"))) {
                return null;
            }
            current.set("spec", wanted.path("spec").deepCopy());
            return current;
        });
    }

    private void deleteQuietly(String name) {
        try {
            apiServices.delete("", name, DeleteOptions.DEFAULT);
        } catch (ApiException e) {
            if (e.reason() != StatusReason.NOT_FOUND) {
                throw e;
            }
        }
    }

    /** kube's {@code makeAPIService}: named {@code version.group}, no service (local). */
    static ObjectNode apiService(GroupVersion gv, Priority p) {
        ObjectNode o = Json.object();
        o.put("apiVersion", "apiregistration.k8s.io/v1");
        o.put("kind", "APIService");
        ObjectNode meta = o.putObject("metadata");
        meta.put("name", gv.version() + "." + gv.group());
        meta.putObject("labels").put(AUTOMANAGED, "onstart");
        ObjectNode spec = o.putObject("spec");
        spec.put("group", gv.group());
        spec.put("version", gv.version());
        spec.put("groupPriorityMinimum", p.group());
        spec.put("versionPriority", p.version());
        return o;
    }

    /** kube-apiserver 1.34's priorities, from the project's data file. */
    static Map<GroupVersion, Priority> priorities() {
        try (InputStream in = LocalApiServices.class.getResourceAsStream(PRIORITIES)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + PRIORITIES);
            }
            Map<GroupVersion, Priority> priorities = new LinkedHashMap<>();
            Json.MAPPER.readTree(in).path("priorities").properties().forEach(e -> priorities.put(
                    GroupVersion.parse(e.getKey()), new Priority(e.getValue().get(0).asInt(), e.getValue().get(1).asInt())));
            return priorities;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.kapi.controllers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.plugin.quota.QuotaScopes;
import io.kapi.admission.plugin.quota.QuotaUsage;
import io.kapi.admission.plugin.quota.ResourceList;
import io.kapi.client.LocalClient;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import io.kapi.registry.ListOptions;
import io.kapi.registry.Registry;
import io.kapi.registry.ResourceStore;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube-controller-manager's resourcequota controller, for standalone mode: every quota's {@code status.hard}
 * is its {@code spec.hard} and {@code status.used} what the objects of its namespace that it covers use now
 * (releasing what deleted objects were charged). A usage is raised at once; it is lowered only once the quota
 * has kept its resourceVersion for a whole pass, so a charge whose object is still being stored is not undone.
 */
public final class QuotaStatusController extends PassHook {

    private static final GroupVersionResource QUOTAS = new GroupVersionResource("", "v1", "resourcequotas");

    private final LocalClient client;
    private final Registry registry;
    private final Map<String, String> lastSeen = new HashMap<>();

    /** kube-controller-manager's {@code --resource-quota-sync-period}. */
    private static final Duration RESYNC = Duration.ofMinutes(5);

    private final Set<GroupVersionResource> watched = ConcurrentHashMap.newKeySet();

    public QuotaStatusController(LocalClient client, Registry registry, SharedInformers informers) {
        super(informers, List.of(QUOTAS), RESYNC);
        this.client = client;
        this.registry = registry;
    }

    @Override
    public String name() {
        return "start-kapi-resourcequota-controller";
    }

    @Override
    public synchronized void syncAll() {
        Map<String, String> seen = new HashMap<>();
        for (ObjectNode quota : registry.list(QUOTAS, "")) {
            ObjectMeta meta = ObjectMeta.of(quota);
            String key = meta.namespace() + "/" + meta.name();
            seen.put(key, meta.resourceVersion());
            boolean stable = meta.resourceVersion().equals(lastSeen.get(key));
            sync(quota, stable);
        }
        lastSeen.clear();
        lastSeen.putAll(seen);
    }

    private void sync(ObjectNode quota, boolean stable) {
        ResourceList hard = ResourceList.of(quota.path("spec").path("hard"));
        ResourceList recorded = ResourceList.of(quota.path("status").path("used"));
        ResourceList used = usage(quota, hard);
        boolean lowers = used.entries().stream().anyMatch(e -> recorded.has(e.getKey())
                && e.getValue().compareTo(recorded.get(e.getKey())) < 0);
        ResourceList next = lowers && !stable ? used.max(recorded.mask(used.names())) : used;
        boolean sameHard = quota.path("status").path("hard").equals(quota.path("spec").path("hard"));
        if (sameHard && next.equals(recorded)) {
            return;
        }
        ObjectNode updated = quota.deepCopy();
        ObjectNode status = updated.with("status");
        status.set("hard", quota.path("spec").path("hard").deepCopy());
        status.set("used", next.toJson());
        try {
            client.resource(QUOTAS).update(updated, "status");
        } catch (ApiException e) {
            if (e.code() != 409 && e.code() != 404) {
                throw e;
            }
        }
    }

    /** The namespace's usage of every resource the quota limits (zero where nothing is used). */
    private ResourceList usage(ObjectNode quota, ResourceList hard) {
        String namespace = ObjectMeta.of(quota).namespace();
        Map<String, ResourceList> byResource = new HashMap<>();
        ResourceList used = ResourceList.EMPTY;
        for (String name : hard.names()) {
            String[] counted = QuotaUsage.countedResource(name);
            if (counted == null) {
                continue;
            }
            ResourceList total = byResource.computeIfAbsent(counted[0] + "/" + counted[1],
                    k -> total(quota, namespace, counted[0], counted[1]));
            used = used.with(name, total.get(name));
        }
        return used;
    }

    private ResourceList total(ObjectNode quota, String namespace, String group, String resource) {
        Optional<ResourceStore> store = registry.stores().stream()
                .filter(s -> s.resource().gvr().group().equals(group) && s.resource().gvr().resource().equals(resource))
                .findFirst();
        if (store.isEmpty()) {
            return ResourceList.EMPTY;
        }
        GroupVersionResource gvr = store.get().resource().gvr();
        if (watched.add(gvr)) {
            watch(gvr); // what a quota counts: its changes bring the next pass (kube's replenishment)
        }
        ResourceList total = ResourceList.EMPTY;
        List<ObjectNode> items = store.get().list(namespace, ListOptions.ALL).items();
        for (ObjectNode o : items) {
            if (QuotaScopes.covers(quota, gvr, o)) {
                total = total.add(QuotaUsage.of(gvr, o));
            }
        }
        return total;
    }
}

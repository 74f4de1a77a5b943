package io.kapi.admission.plugin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.LiveObjects;
import io.kapi.admission.ObjectLookup;
import io.kapi.admission.ObjectWriter;
import io.kapi.admission.Operation;
import io.kapi.admission.ValidatingPlugin;
import io.kapi.admission.plugin.quota.QuotaScopes;
import io.kapi.admission.plugin.quota.QuotaUsage;
import io.kapi.admission.plugin.quota.ResourceList;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * kube-apiserver's default-on {@code ResourceQuota}: what a create (or a claim or service update) adds to the
 * quotas of its namespace that cover it ({@link QuotaUsage}: object counts, pods' compute requests and limits,
 * claims' storage, services' load balancers and node ports; {@link QuotaScopes}) is charged to each by a
 * compare-and-swap of the quota's {@code status.used} (retried on conflict, so concurrent creates never exceed
 * it), or refused as kube words it ({@code exceeded quota: q, requested: limits.cpu=2, used: limits.cpu=1,
 * limited: limits.cpu=2}). A pod must name every cpu/memory resource a covering quota limits
 * ({@code failed quota: q: must specify limits.cpu for: c}). A quota whose status lacks a usage gets it counted.
 * Dry runs are checked, not charged. Releases on delete are the quota status controller's.
 */
public final class ResourceQuotaAdmission implements ValidatingPlugin {

    public static final GroupVersionResource QUOTAS = new GroupVersionResource("", "v1", "resourcequotas");
    private static final Set<String> UPDATED = Set.of("persistentvolumeclaims", "services");
    private static final int ATTEMPTS = 20;

    private final ObjectLookup lookup;
    private final LiveObjects quotas;
    private final ObjectWriter writer;

    /** Quotas are found in {@code quotas} (a watch); a stale one is read again when its charge conflicts. */
    public ResourceQuotaAdmission(ObjectLookup lookup, LiveObjects quotas, ObjectWriter writer) {
        this.lookup = lookup;
        this.quotas = quotas;
        this.writer = writer;
    }

    @Override
    public String name() {
        return "ResourceQuota";
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.CREATE || operation == Operation.UPDATE;
    }

    @Override
    public void validate(Attributes a) {
        Attributes.Target t = a.target();
        if (!t.subresource().isEmpty() || t.namespace().isEmpty() || a.object() == null) {
            return;
        }
        ResourceList delta = delta(a);
        if (delta.isEmpty()) {
            return;
        }
        List<ObjectNode> covering = new ArrayList<>();
        for (ObjectNode quota : quotas.items()) {
            if (ObjectMeta.of(quota).namespace().equals(t.namespace())
                    && QuotaScopes.covers(quota, t.resource(), a.object())) {
                covering.add(quota);
            }
        }
        for (ObjectNode quota : covering) {
            String missing = QuotaUsage.missing(t.resource(), a.object(), hard(quota).names());
            if (!missing.isEmpty()) {
                throw a.forbidden("failed quota: " + ObjectMeta.of(quota).name() + ": " + missing);
            }
        }
        for (ObjectNode quota : covering) {
            if (!delta.mask(hard(quota).names()).isEmpty()) {
                charge(a, quota, delta);
            }
        }
    }

    /** What the request adds: the new object's usage, or for an update its growth (shrinking is not charged). */
    private static ResourceList delta(Attributes a) {
        GroupVersionResource r = a.target().resource();
        ResourceList now = QuotaUsage.of(r, a.object());
        if (a.operation() == Operation.CREATE) {
            return now;
        }
        if (!r.group().isEmpty() || !UPDATED.contains(r.resource()) || a.oldObject() == null) {
            return ResourceList.EMPTY;
        }
        ResourceList growth = now.subtract(QuotaUsage.of(r, a.oldObject()));
        List<String> positive = growth.entries().stream().filter(e -> e.getValue().signum() > 0)
                .map(java.util.Map.Entry::getKey).toList();
        return growth.mask(positive);
    }

    private static ResourceList hard(ObjectNode quota) {
        return ResourceList.of(quota.path("spec").path("hard"));
    }

    private void charge(Attributes a, ObjectNode quota, ResourceList delta) {
        ObjectNode current = quota;
        for (int attempt = 1; ; attempt++) {
            ResourceList hard = hard(current);
            ResourceList requested = delta.mask(hard.names());
            ResourceList used = used(a, current, requested.names());
            Set<String> exceeded = used.add(requested).exceeding(hard);
            if (!exceeded.isEmpty()) {
                throw a.forbidden("exceeded quota: " + ObjectMeta.of(current).name() + ", requested: "
                        + requested.mask(exceeded).pretty() + ", used: " + used.mask(exceeded).pretty() + ", limited: "
                        + hard.mask(exceeded).pretty());
            }
            if (a.dryRun()) {
                return;
            }
            ObjectNode updated = current.deepCopy();
            ObjectNode status = updated.with("status");
            status.set("hard", updated.path("spec").path("hard").deepCopy());
            ResourceList charged = ResourceList.of(status.path("used"));
            for (String n : requested.names()) {
                charged = charged.with(n, used.get(n).add(requested.get(n)));
            }
            status.set("used", charged.toJson());
            try {
                writer.updateStatus(QUOTAS, updated);
                return;
            } catch (ApiException e) {
                if (e.reason() != StatusReason.CONFLICT || attempt == ATTEMPTS) {
                    throw e;
                }
            }
            String quotaName = ObjectMeta.of(current).name();
            current = lookup.get(QUOTAS, a.target().namespace(), quotaName).orElseThrow(
                    () -> ApiException.notFound(QUOTAS, quotaName));
        }
    }

    /** The quota's recorded usage of {@code names}; one it has not recorded yet is counted from storage. */
    private ResourceList used(Attributes a, ObjectNode quota, Set<String> names) {
        ResourceList recorded = ResourceList.of(quota.path("status").path("used")).mask(names);
        if (recorded.names().containsAll(names)) {
            return recorded;
        }
        ResourceList counted = ResourceList.EMPTY;
        GroupVersionResource r = a.target().resource();
        for (ObjectNode o : lookup.list(r, a.target().namespace())) {
            if (QuotaScopes.covers(quota, r, o)) {
                counted = counted.add(QuotaUsage.of(r, o));
            }
        }
        ResourceList result = recorded;
        for (String n : names) {
            if (!recorded.has(n)) {
                result = result.with(n, counted.get(n));
            }
        }
        return result;
    }

}

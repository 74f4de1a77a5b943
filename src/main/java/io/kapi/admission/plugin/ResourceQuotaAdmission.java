package io.kapi.admission.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.LiveObjects;
import io.kapi.admission.ObjectLookup;
import io.kapi.admission.ObjectWriter;
import io.kapi.admission.Operation;
import io.kapi.admission.ValidatingPlugin;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * kube-apiserver's default-on {@code ResourceQuota}, for object counts: a create in a namespace whose
 * quotas limit its resource ({@code count/<resource>[.<group>]}, or the legacy names {@code pods},
 * {@code configmaps}, {@code secrets}, ...) is charged to each such quota by a compare-and-swap of the
 * quota's {@code status.used} (retried on conflict, so concurrent creates never exceed it), or refused
 * as kube words it ({@code exceeded quota: q, requested: configmaps=1, used: configmaps=12, limited:
 * configmaps=12}). A quota whose status has no usage yet gets {@code hard} copied from the spec and the
 * usage counted. Dry runs are checked, not charged.
 */
public final class ResourceQuotaAdmission implements ValidatingPlugin {

    public static final GroupVersionResource QUOTAS = new GroupVersionResource("", "v1", "resourcequotas");
    private static final Set<String> LEGACY = Set.of("pods", "services", "replicationcontrollers", "resourcequotas",
            "secrets", "configmaps", "persistentvolumeclaims");
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
        return operation == Operation.CREATE;
    }

    @Override
    public void validate(Attributes a) {
        Attributes.Target t = a.target();
        if (!t.subresource().isEmpty() || t.namespace().isEmpty()) {
            return;
        }
        List<String> names = names(t.resource());
        for (ObjectNode quota : quotas.items()) {
            if (!ObjectMeta.of(quota).namespace().equals(t.namespace())) {
                continue;
            }
            Optional<String> limited = names.stream().filter(n -> quota.path("spec").path("hard").has(n)).findFirst();
            if (limited.isPresent()) {
                charge(a, quota, limited.get());
            }
        }
    }

    /** The quota resource names that count objects of {@code gvr}. */
    private static List<String> names(GroupVersionResource gvr) {
        List<String> names = new ArrayList<>();
        names.add("count/" + gvr.resource() + (gvr.group().isEmpty() ? "" : "." + gvr.group()));
        if (gvr.group().isEmpty() && LEGACY.contains(gvr.resource())) {
            names.add(gvr.resource());
        }
        return names;
    }

    private void charge(Attributes a, ObjectNode quota, String name) {
        ObjectNode current = quota;
        for (int attempt = 1; ; attempt++) {
            long hard = count(current.path("spec").path("hard").path(name));
            JsonNode usedNode = current.path("status").path("used").path(name);
            long used = usedNode.isMissingNode() ? counted(a) : count(usedNode);
            if (used + 1 > hard) {
                throw ApiException.forbidden(a.target().resource(), a.target().name(), "exceeded quota: "
                        + ObjectMeta.of(current).name() + ", requested: " + name + "=1, used: " + name + "=" + used
                        + ", limited: " + name + "=" + hard, List.of());
            }
            if (a.dryRun()) {
                return;
            }
            ObjectNode updated = current.deepCopy();
            ObjectNode status = updated.with("status");
            status.set("hard", updated.path("spec").path("hard").deepCopy());
            status.with("used").put(name, Long.toString(used + 1));
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

    /** The objects of the request's resource in its namespace, as the quota controller counts them. */
    private long counted(Attributes a) {
        return lookup.list(a.target().resource(), a.target().namespace()).size();
    }

    /** A count quantity ({@code 12}, {@code 1k}) as a whole number; what does not parse counts as 0. */
    private static long count(JsonNode value) {
        io.kapi.machinery.quantity.Quantity q = io.kapi.machinery.quantity.Quantity.parseOrNull(value.asText(null));
        return q == null ? 0 : q.value().setScale(0, java.math.RoundingMode.UP).longValue();
    }
}

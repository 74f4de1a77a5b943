package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.quantity.Quantity;
import io.kapi.registry.KindValidator;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * ResourceQuotas, as kube 1.34's {@code ValidateResourceQuota} and {@code ValidateResourceQuotaUpdate}: each
 * {@code spec.hard} name is a resource name and a quota resource ({@code must be a standard resource for
 * quota} unless it has a domain), each amount non-negative and whole for counted resources; scopes are known,
 * apply to every standard resource limited, and do not conflict (BestEffort with NotBestEffort, Terminating
 * with NotTerminating); {@code scopeSelector} expressions the same, with the operators each scope allows. An
 * update may not change the scopes. Hard limits are checked in name order (Go's map order is random).
 */
public final class Quotas {

    private static final Set<String> QUOTA_RESOURCES = Set.of("cpu", "memory", "ephemeral-storage", "requests.cpu",
            "requests.memory", "requests.storage", "requests.ephemeral-storage", "limits.cpu", "limits.memory",
            "limits.ephemeral-storage", "pods", "services", "replicationcontrollers", "resourcequotas", "secrets",
            "persistentvolumeclaims", "configmaps", "services.nodeports", "services.loadbalancers");
    private static final Set<String> SCOPES = Set.of("Terminating", "NotTerminating", "BestEffort", "NotBestEffort",
            "PriorityClass", "CrossNamespacePodAffinity", "VolumeAttributesClass");
    /** What pod-scoped quotas may limit: the pod count and pod compute resources. */
    private static final Set<String> POD_RESOURCES = Set.of("pods", "cpu", "memory", "limits.cpu", "limits.memory",
            "requests.cpu", "requests.memory");
    private static final Set<String> CLAIM_RESOURCES = Set.of("persistentvolumeclaims", "requests.storage");
    private static final List<Set<String>> CONFLICTS = List.of(Set.of("BestEffort", "NotBestEffort"),
            Set.of("Terminating", "NotTerminating"));
    private static final Set<String> EXISTS_ONLY = Set.of("BestEffort", "NotBestEffort", "Terminating",
            "NotTerminating", "CrossNamespacePodAffinity");

    public static final KindValidator RULES = new Rules(Quotas::quota, (o, old, e) -> {
        spec(GoValues.at(o, "spec"), "spec", e);
        if (!scopeSet(GoValues.at(o, "spec", "scopes")).equals(scopeSet(GoValues.at(old, "spec", "scopes")))) {
            e.invalid("spec.scopes", scopes(GoValues.at(o, "spec", "scopes")), Errs.IMMUTABLE);
        }
    });

    private Quotas() {
    }

    private static void quota(ObjectNode quota, Errs e) {
        spec(GoValues.at(quota, "spec"), "spec", e);
        amounts(GoValues.at(quota, "status", "hard"), "status.hard", e);
        amounts(GoValues.at(quota, "status", "used"), "status.used", e);
    }

    /** {@code ValidateResourceQuotaSpec}. */
    private static void spec(JsonNode spec, String path, Errs e) {
        Set<String> hard = amounts(GoValues.at(spec, "hard"), path + ".hard", e);
        scopes(spec, hard, path, e);
        JsonNode selector = GoValues.at(spec, "scopeSelector");
        if (!GoValues.isUnset(selector)) {
            scopeSelector(selector, hard, scopes(GoValues.at(spec, "scopes")), path + ".scopeSelector", e);
        }
    }

    /** Each name and amount of a resource list; returns the names. */
    private static Set<String> amounts(JsonNode list, String path, Errs e) {
        Map<String, JsonNode> sorted = new TreeMap<>();
        if (list.isObject()) {
            list.properties().forEach(en -> sorted.put(en.getKey(), en.getValue()));
        }
        sorted.forEach((name, value) -> {
            String p = path + "[" + name + "]";
            ResourceNames.resource(name, p, e);
            if (!name.contains("/") && !isQuotaResource(name)) {
                e.invalidString(p, name, "must be a standard resource for quota");
            }
            Quantity q = Quantity.parseOrNull(value.asText());
            if (q != null) {
                ResourceNames.quantityValue(name, q, p, e);
            }
        });
        return sorted.keySet();
    }

    /** {@code IsStandardQuotaResourceName}: the quota resources and {@code requests.hugepages-<size>}. */
    private static boolean isQuotaResource(String name) {
        return QUOTA_RESOURCES.contains(name) || name.startsWith("requests.hugepages-");
    }

    /** {@code validateResourceQuotaScopes}. */
    private static void scopes(JsonNode spec, Set<String> hard, String path, Errs e) {
        JsonNode scopes = GoValues.at(spec, "scopes");
        List<String> names = GoValues.items(scopes).stream().map(JsonNode::asText).toList();
        if (names.isEmpty()) {
            return;
        }
        String value = scopes(scopes);
        for (String scope : names) {
            if (!SCOPES.contains(scope)) {
                e.invalid(path + ".scopes", value, "unsupported scope");
            }
            for (String resource : hard) {
                if (isQuotaResource(resource) && !validFor(scope, resource)) {
                    e.invalid(path + ".scopes", value, "unsupported scope applied to resource");
                }
            }
        }
        conflicts(new LinkedHashSet<>(names), path + ".scopes", value, e);
    }

    /**
     * {@code validateScopedResourceSelectorRequirement}; its conflict is reported with {@code spec.scopes} as the
     * value ({@code scopes}), as kube's is.
     */
    private static void scopeSelector(JsonNode selector, Set<String> hard, String scopes, String path, Errs e) {
        String p = path + ".matchExpressions";
        Set<String> seen = new LinkedHashSet<>();
        for (JsonNode req : GoValues.items(selector, "matchExpressions")) {
            String scope = GoValues.text(req, "scopeName");
            String operator = GoValues.text(req, "operator");
            List<JsonNode> values = GoValues.items(req, "values");
            if (!SCOPES.contains(scope)) {
                e.invalidString(p + ".scopeName", scope, "unsupported scope");
            }
            for (String resource : hard) {
                if (isQuotaResource(resource) && !validFor(scope, resource)) {
                    e.invalid(p, scopeSelector(selector), "unsupported scope applied to resource");
                }
            }
            if (EXISTS_ONLY.contains(scope) && !operator.equals("Exists")) {
                e.invalidString(p + ".operator", operator, "must be 'Exist' when scope is any of "
                        + "ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, "
                        + "ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity");
            }
            switch (operator) {
                case "In", "NotIn" -> {
                    if (values.isEmpty()) {
                        e.required(p + ".values", "must be at least one value when `operator` is 'In' or 'NotIn' "
                                + "for scope selector");
                    }
                }
                case "Exists", "DoesNotExist" -> {
                    if (!values.isEmpty()) {
                        e.invalid(p + ".values", Go.stringSlice(req.get("values")), "must be no value when "
                                + "`operator` is 'Exist' or 'DoesNotExist' for scope selector");
                    }
                }
                default -> e.invalidString(p + ".operator", operator, "not a valid selector operator");
            }
            seen.add(scope);
        }
        conflicts(seen, p, scopes, e);
    }

    private static void conflicts(Set<String> scopes, String path, String value, Errs e) {
        for (Set<String> pair : CONFLICTS) {
            if (scopes.containsAll(pair)) {
                e.invalid(path, value, "conflicting scopes");
            }
        }
    }

    /** {@code IsResourceQuotaScopeValidForResource}. */
    private static boolean validFor(String scope, String resource) {
        return switch (scope) {
            case "Terminating", "NotTerminating", "NotBestEffort", "PriorityClass", "CrossNamespacePodAffinity" ->
                    POD_RESOURCES.contains(resource);
            case "BestEffort" -> resource.equals("pods");
            case "VolumeAttributesClass" -> CLAIM_RESOURCES.contains(resource);
            default -> true;
        };
    }

    private static Set<String> scopeSet(JsonNode scopes) {
        Set<String> set = new java.util.HashSet<>();
        GoValues.items(scopes).forEach(s -> set.add(s.asText()));
        return set;
    }

    /** {@code []core.ResourceQuotaScope{"BestEffort", "NotBestEffort"}} as {@code %#v} prints the scopes. */
    private static String scopes(JsonNode scopes) {
        if (!scopes.isArray()) {
            return "[]core.ResourceQuotaScope(nil)";
        }
        List<String> parts = new ArrayList<>();
        scopes.forEach(s -> parts.add(GoStrings.quote(s.asText())));
        return "[]core.ResourceQuotaScope{" + String.join(", ", parts) + "}";
    }

    /** A scope selector as {@code %#v} prints the {@code core.ScopeSelector} its pointer points to. */
    private static String scopeSelector(JsonNode selector) {
        JsonNode exprs = GoValues.at(selector, "matchExpressions");
        String expressions;
        if (!exprs.isArray()) {
            expressions = "[]core.ScopedResourceSelectorRequirement(nil)";
        } else {
            List<String> parts = new ArrayList<>();
            for (JsonNode r : exprs) {
                parts.add("core.ScopedResourceSelectorRequirement{ScopeName:" + GoStrings.quote(GoValues.text(r, "scopeName"))
                        + ", Operator:" + GoStrings.quote(GoValues.text(r, "operator")) + ", Values:"
                        + Go.stringSlice(r.get("values")) + "}");
            }
            expressions = "[]core.ScopedResourceSelectorRequirement{" + String.join(", ", parts) + "}";
        }
        return "core.ScopeSelector{MatchExpressions:" + expressions + "}";
    }
}

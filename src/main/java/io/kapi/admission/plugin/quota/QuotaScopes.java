package io.kapi.admission.plugin.quota;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GroupVersionResource;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether a quota's {@code scopes} and {@code scopeSelector} cover an object, as kube's pod scope matching:
 * Terminating / NotTerminating ({@code activeDeadlineSeconds}), BestEffort / NotBestEffort (no cpu or memory
 * request or limit), PriorityClass (In, NotIn, Exists, DoesNotExist) and CrossNamespacePodAffinity. A scoped quota
 * covers only pods.
 */
public final class QuotaScopes {

    private record Requirement(String scope, String operator, List<String> values) {
    }

    private QuotaScopes() {
    }

    public static boolean covers(JsonNode quota, GroupVersionResource gvr, JsonNode object) {
        List<Requirement> requirements = requirements(quota.path("spec"));
        if (requirements.isEmpty()) {
            return true;
        }
        if (!gvr.group().isEmpty() || !gvr.resource().equals("pods")) {
            return false;
        }
        return requirements.stream().allMatch(r -> matches(r, object));
    }

    private static List<Requirement> requirements(JsonNode spec) {
        List<Requirement> out = new ArrayList<>();
        spec.path("scopes").forEach(s -> out.add(new Requirement(s.asText(), "Exists", List.of())));
        for (JsonNode e : spec.path("scopeSelector").path("matchExpressions")) {
            List<String> values = new ArrayList<>();
            e.path("values").forEach(v -> values.add(v.asText()));
            out.add(new Requirement(e.path("scopeName").asText(), e.path("operator").asText(), values));
        }
        return out;
    }

    private static boolean matches(Requirement r, JsonNode pod) {
        JsonNode spec = pod.path("spec");
        return switch (r.scope()) {
            case "Terminating" -> terminating(spec);
            case "NotTerminating" -> !terminating(spec);
            case "BestEffort" -> bestEffort(spec);
            case "NotBestEffort" -> !bestEffort(spec);
            case "PriorityClass" -> priority(r, spec.path("priorityClassName").asText(""));
            case "CrossNamespacePodAffinity" -> crossNamespace(spec.path("affinity"));
            default -> false;
        };
    }

    private static boolean terminating(JsonNode spec) {
        return spec.path("activeDeadlineSeconds").isIntegralNumber() && spec.path("activeDeadlineSeconds").asLong() >= 0;
    }

    private static boolean bestEffort(JsonNode spec) {
        for (String field : new String[] {"containers", "initContainers"}) {
            for (JsonNode c : spec.path(field)) {
                for (String kind : new String[] {"requests", "limits"}) {
                    JsonNode list = c.path("resources").path(kind);
                    if (list.has("cpu") || list.has("memory")) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private static boolean priority(Requirement r, String priorityClass) {
        return switch (r.operator()) {
            case "Exists" -> !priorityClass.isEmpty();
            case "DoesNotExist" -> priorityClass.isEmpty();
            case "In" -> !priorityClass.isEmpty() && r.values().contains(priorityClass);
            case "NotIn" -> priorityClass.isEmpty() || !r.values().contains(priorityClass);
            default -> false;
        };
    }

    private static boolean crossNamespace(JsonNode affinity) {
        for (String kind : new String[] {"podAffinity", "podAntiAffinity"}) {
            JsonNode a = affinity.path(kind);
            for (JsonNode t : a.path("requiredDuringSchedulingIgnoredDuringExecution")) {
                if (!t.path("namespaces").isEmpty() || t.has("namespaceSelector")) {
                    return true;
                }
            }
            for (JsonNode w : a.path("preferredDuringSchedulingIgnoredDuringExecution")) {
                JsonNode t = w.path("podAffinityTerm");
                if (!t.path("namespaces").isEmpty() || t.has("namespaceSelector")) {
                    return true;
                }
            }
        }
        return false;
    }
}

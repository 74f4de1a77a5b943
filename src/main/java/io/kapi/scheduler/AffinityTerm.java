package io.kapi.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.labels.LabelSelector;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One pod affinity or anti-affinity term, read once (kube's {@code fwk.AffinityTerm}): the Pods it is
 * about are those of {@code namespaces} (the owner's own namespace when the term names none and has no
 * namespace selector) or of a namespace {@code namespaceSelector} matches, whose labels {@code selector}
 * matches; they count in the topology domain {@code topologyKey} names. {@code weight} is 0 for a
 * required term.
 */
record AffinityTerm(Set<String> namespaces, LabelSelector selector, String topologyKey,
                    LabelSelector namespaceSelector, int weight) {

    static AffinityTerm of(String ownNamespace, JsonNode term, int weight) {
        Set<String> namespaces = new HashSet<>();
        term.path("namespaces").forEach(n -> namespaces.add(n.asText()));
        JsonNode nsSelector = term.path("namespaceSelector");
        if (namespaces.isEmpty() && (nsSelector.isMissingNode() || nsSelector.isNull())) {
            namespaces.add(ownNamespace);
        }
        return new AffinityTerm(Set.copyOf(namespaces), selector(term.path("labelSelector")),
                term.path("topologyKey").asText(""), selector(nsSelector), weight);
    }

    /** The required terms of {@code affinity.<kind>.requiredDuringSchedulingIgnoredDuringExecution}. */
    static List<AffinityTerm> required(String ownNamespace, JsonNode podAffinity) {
        List<AffinityTerm> terms = new ArrayList<>();
        for (JsonNode t : podAffinity.path("requiredDuringSchedulingIgnoredDuringExecution")) {
            terms.add(of(ownNamespace, t, 0));
        }
        return List.copyOf(terms);
    }

    static List<AffinityTerm> preferred(String ownNamespace, JsonNode podAffinity) {
        List<AffinityTerm> terms = new ArrayList<>();
        for (JsonNode t : podAffinity.path("preferredDuringSchedulingIgnoredDuringExecution")) {
            terms.add(of(ownNamespace, t.path("podAffinityTerm"), t.path("weight").asInt(0)));
        }
        return List.copyOf(terms);
    }

    /** Whether {@code pod} is one this term is about ({@code nsLabels}: the labels of the pod's namespace). */
    boolean matches(PodInfo pod, Map<String, String> nsLabels) {
        if (namespaces.contains(pod.namespace()) || namespaceSelector.matches(nsLabels)) {
            return selector.matches(pod.labels());
        }
        return false;
    }

    private static LabelSelector selector(JsonNode s) {
        try {
            return LabelSelector.fromObject(s);
        } catch (IllegalArgumentException e) {
            return LabelSelector.NOTHING;
        }
    }
}

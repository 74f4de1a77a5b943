package io.kapi.admission.match;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.ObjectLookup;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.labels.LabelSelector;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which requests a webhook or an admission policy (binding) applies to, as kube's {@code matching}
 * package decides: the rules (less the excluded ones), the namespace selector (for namespaced objects the
 * labels of their namespace; for a Namespace its own; cluster-scoped objects always match), the object
 * selector (the labels of the new or the old object), and the match policy ({@code Equivalent} also
 * matches other versions of the same resource).
 */
public record MatchCriteria(List<Rule> rules, List<Rule> excluded, LabelSelector namespaceSelector,
                            LabelSelector objectSelector, boolean equivalent) {

    private static final GroupVersionResource NAMESPACES = new GroupVersionResource("", "v1", "namespaces");

    /** A webhook's criteria: its rules, selectors and matchPolicy (default Equivalent). */
    public static MatchCriteria ofWebhook(JsonNode webhook) {
        return new MatchCriteria(Rule.all(webhook.path("rules")), List.of(),
                selector(webhook.get("namespaceSelector")), selector(webhook.get("objectSelector")),
                !webhook.path("matchPolicy").asText("Equivalent").equals("Exact"));
    }

    /** A policy's or binding's {@code matchResources}. */
    public static MatchCriteria ofMatchResources(JsonNode match) {
        return new MatchCriteria(Rule.all(match.path("resourceRules")), Rule.all(match.path("excludeResourceRules")),
                selector(match.get("namespaceSelector")), selector(match.get("objectSelector")),
                !match.path("matchPolicy").asText("Equivalent").equals("Exact"));
    }

    /** Whether the request matches; the namespace's labels are read through {@code lookup} when needed. */
    public boolean matches(Attributes a, ObjectLookup lookup) {
        return matchesRules(a) && matchesObject(a) && matchesNamespace(a, lookup);
    }

    /** The rules alone (no selectors). */
    public boolean matchesRules(Attributes a) {
        boolean included = rules.stream().anyMatch(r -> r.matches(a, false))
                || (equivalent && rules.stream().anyMatch(r -> r.matches(a, true)));
        return included && excluded.stream().noneMatch(r -> r.matches(a, equivalent));
    }

    private boolean matchesObject(Attributes a) {
        if (objectSelector.isEverything()) {
            return true;
        }
        return labels(a.object()).map(objectSelector::matches).orElse(false)
                || labels(a.oldObject()).map(objectSelector::matches).orElse(false);
    }

    private boolean matchesNamespace(Attributes a, ObjectLookup lookup) {
        if (namespaceSelector.isEverything()) {
            return true;
        }
        Attributes.Target t = a.target();
        if (t.resource().group().isEmpty() && t.resource().resource().equals("namespaces") && t.subresource().isEmpty()) {
            ObjectNode ns = a.object() != null ? a.object() : a.oldObject();
            return labels(ns).map(namespaceSelector::matches).orElse(false);
        }
        if (t.namespace().isEmpty()) {
            return true;
        }
        Optional<ObjectNode> ns = lookup.get(NAMESPACES, "", t.namespace());
        if (ns.isEmpty()) {
            throw ApiException.notFound(NAMESPACES, t.namespace());
        }
        return namespaceSelector.matches(ObjectMeta.of(ns.get()).labels());
    }

    /** A selector of a configuration: absent selects everything (the API defaults it to {}). */
    private static LabelSelector selector(JsonNode selector) {
        if (selector == null || selector.isNull() || selector.isMissingNode()) {
            return LabelSelector.EVERYTHING;
        }
        try {
            return LabelSelector.fromObject(selector);
        } catch (IllegalArgumentException e) {
            return LabelSelector.NOTHING;
        }
    }

    private static Optional<Map<String, String>> labels(ObjectNode object) {
        return object == null ? Optional.empty() : Optional.of(ObjectMeta.of(object).labels());
    }
}

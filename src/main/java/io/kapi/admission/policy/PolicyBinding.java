package io.kapi.admission.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.match.MatchCriteria;
import io.kapi.admission.match.Rule;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.labels.LabelSelector;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One ValidatingAdmissionPolicyBinding: the policy it binds, where its parameters are, what a failed
 * validation does ({@code Deny}, {@code Warn}, {@code Audit}) and which requests it narrows the policy to.
 *
 * @param paramRef null when the binding names no parameters
 * @param match null when the binding has no {@code matchResources} (all the policy matches)
 */
record PolicyBinding(String name, String policyName, ParamRef paramRef, Set<String> actions, MatchCriteria match) {

    /** Every rule: a binding's matchResources without resourceRules narrows by its selectors only. */
    private static final Rule ANY = new Rule(List.of("*"), List.of("*"), List.of("*"), List.of("*", "*/*"), "*", List.of());

    /**
     * Where the parameters are: one object by name, or every object a selector picks, in {@code namespace}
     * (empty: the request's, for a namespaced paramKind).
     *
     * @param selector null when {@code name} is given
     * @param denyWhenMissing {@code parameterNotFoundAction: Deny}
     */
    record ParamRef(String name, String namespace, LabelSelector selector, boolean denyWhenMissing) {
    }

    static PolicyBinding of(ObjectNode binding) {
        JsonNode spec = binding.path("spec");
        Set<String> actions = new LinkedHashSet<>();
        spec.path("validationActions").forEach(a -> actions.add(a.asText()));
        return new PolicyBinding(ObjectMeta.of(binding).name(), spec.path("policyName").asText(""),
                paramRef(spec.path("paramRef")), Set.copyOf(actions), match(spec.path("matchResources")));
    }

    private static ParamRef paramRef(JsonNode ref) {
        if (!ref.isObject()) {
            return null;
        }
        LabelSelector selector = null;
        if (ref.path("name").asText("").isEmpty()) {
            try {
                selector = LabelSelector.fromObject(ref.get("selector"));
            } catch (IllegalArgumentException e) {
                selector = LabelSelector.NOTHING;
            }
        }
        return new ParamRef(ref.path("name").asText(""), ref.path("namespace").asText(""), selector,
                !ref.path("parameterNotFoundAction").asText("Deny").equals("Allow"));
    }

    private static MatchCriteria match(JsonNode match) {
        if (!match.isObject()) {
            return null;
        }
        MatchCriteria m = MatchCriteria.ofMatchResources(match);
        return m.rules().isEmpty() ? new MatchCriteria(List.of(ANY), m.excluded(), m.namespaceSelector(),
                m.objectSelector(), m.equivalent()) : m;
    }
}

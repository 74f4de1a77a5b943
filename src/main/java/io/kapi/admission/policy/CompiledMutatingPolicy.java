package io.kapi.admission.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.cel.AdmissionCel;
import io.kapi.admission.cel.MatchConditions;
import io.kapi.admission.match.MatchCriteria;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.ObjectMeta;
import java.util.ArrayList;
import java.util.List;

/**
 * One MutatingAdmissionPolicy (admissionregistration.k8s.io/v1beta1 or v1alpha1), compiled as kube's
 * {@code compilePolicy} does: variables and match conditions in the policies' environment, each mutation in
 * the one with type construction. Compile errors are kept and reported when the policy runs (its failure
 * policy decides), as kube defers them.
 *
 * @param paramKind the kind of its parameters, or null
 * @param reinvokeIfNeeded {@code reinvocationPolicy: IfNeeded}
 */
record CompiledMutatingPolicy(String name, GroupVersionKind paramKind, MatchCriteria match,
                              MatchConditions conditions, boolean failOpen, List<CompiledPolicy.Variable> variables,
                              List<Mutation> mutations, boolean reinvokeIfNeeded) {

    /** How a mutation's result changes the object. */
    enum PatchType {
        /** An {@code Object{...}} merged as server-side apply merges. */
        APPLY_CONFIGURATION,
        /** A list of {@code JSONPatch{...}} operations. */
        JSON_PATCH
    }

    /** One mutation; {@code expression} null for a patch type Kapi does not know (validation refuses those). */
    record Mutation(PatchType type, PolicyExpression expression) {
    }

    static CompiledMutatingPolicy of(ObjectNode policy) {
        JsonNode spec = policy.path("spec");
        List<CompiledPolicy.Variable> variables = new ArrayList<>();
        spec.path("variables").forEach(v -> variables.add(new CompiledPolicy.Variable(v.path("name").asText(),
                PolicyExpression.compile(v.path("expression").asText("")))));
        List<Mutation> mutations = new ArrayList<>();
        for (JsonNode m : spec.path("mutations")) {
            switch (m.path("patchType").asText("")) {
                case "ApplyConfiguration" -> mutations.add(new Mutation(PatchType.APPLY_CONFIGURATION,
                        mutation(m.path("applyConfiguration"))));
                case "JSONPatch" -> mutations.add(new Mutation(PatchType.JSON_PATCH, mutation(m.path("jsonPatch"))));
                default -> {
                    // not admitted by validation; kube compiles no patcher for it either
                }
            }
        }
        return new CompiledMutatingPolicy(ObjectMeta.of(policy).name(), CompiledPolicy.paramKind(spec.path("paramKind")),
                MatchCriteria.ofMatchResources(spec.path("matchConstraints")),
                MatchConditions.compile(spec.path("matchConditions"), AdmissionCel.policies()),
                spec.path("failurePolicy").asText("Fail").equals("Ignore"), List.copyOf(variables),
                List.copyOf(mutations), spec.path("reinvocationPolicy").asText("Never").equals("IfNeeded"));
    }

    private static PolicyExpression mutation(JsonNode holder) {
        return PolicyExpression.compile(holder.path("expression").asText(""), AdmissionCel.mutations());
    }
}

package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.cel.AdmissionCel;
import io.kapi.machinery.cel.CelError;
import io.kapi.machinery.cel.CelExpression;
import io.kapi.registry.KindValidator;
import java.util.List;

/**
 * kube's validation of MutatingAdmissionPolicies and their bindings (admissionregistration.k8s.io
 * v1beta1 and v1alpha1) as far as Kapi checks it: match constraints with resource rules, at least one
 * mutation, each with a supported patch type and the one matching expression holder, expressions that
 * compile (mutations in the environment with type construction) to the type their patch type needs,
 * the failure and reinvocation policies; a binding needs its policy's name.
 */
public final class MutatingPolicies {

    public static final KindValidator POLICY = Rules.of(MutatingPolicies::policy);
    public static final KindValidator BINDING = Rules.of(MutatingPolicies::binding);

    private static final List<String> PATCH_TYPES = List.of("ApplyConfiguration", "JSONPatch");
    private static final List<String> FAILURE_POLICIES = List.of("Fail", "Ignore");
    private static final List<String> REINVOCATION_POLICIES = List.of("IfNeeded", "Never");

    private MutatingPolicies() {
    }

    private static void policy(ObjectNode policy, Errs e) {
        JsonNode spec = policy.path("spec");
        oneOf(spec, "failurePolicy", "spec.failurePolicy", FAILURE_POLICIES, false, e);
        if (!spec.path("matchConstraints").isObject()) {
            e.required("spec.matchConstraints", "");
        } else if (spec.path("matchConstraints").path("resourceRules").isEmpty()) {
            e.required("spec.matchConstraints.resourceRules", "");
        }
        AdmissionPolicies.expressions(spec.path("matchConditions"), "spec.matchConditions", "expression",
                AdmissionCel.policies(), e);
        AdmissionPolicies.expressions(spec.path("variables"), "spec.variables", "expression", AdmissionCel.policies(), e);
        if (spec.path("mutations").isEmpty()) {
            e.required("spec.mutations", "mutations must contain at least one item");
        }
        int i = 0;
        for (JsonNode m : spec.path("mutations")) {
            mutation(m, "spec.mutations[" + i++ + "]", e);
        }
        oneOf(spec, "reinvocationPolicy", "spec.reinvocationPolicy", REINVOCATION_POLICIES, true, e);
    }

    private static void mutation(JsonNode m, String path, Errs e) {
        String type = m.path("patchType").asText("");
        if (type.isEmpty()) {
            e.required(path + ".patchType", "");
            return;
        }
        if (!PATCH_TYPES.contains(type)) {
            e.notSupported(path + ".patchType", "\"" + type + "\"", PATCH_TYPES);
            return;
        }
        boolean apply = type.equals("ApplyConfiguration");
        String holder = apply ? "applyConfiguration" : "jsonPatch";
        String other = apply ? "jsonPatch" : "applyConfiguration";
        if (m.hasNonNull(other)) {
            e.forbidden(path + "." + other, "must not be specified when patchType is " + type);
        }
        if (!m.path(holder).isObject()) {
            e.required(path + "." + holder, "must be specified when patchType is " + type);
            return;
        }
        String source = m.path(holder).path("expression").asText("");
        String at = path + "." + holder + ".expression";
        if (source.isBlank()) {
            e.required(at, "");
            return;
        }
        try {
            CelExpression compiled = AdmissionCel.mutations().compile(source);
            String result = compiled.resultType();
            boolean fits = apply ? result.equals("Object") || result.equals("dyn")
                    : result.equals("list(JSONPatch)") || result.equals("list(dyn)") || result.equals("dyn");
            if (!fits) {
                e.invalidString(at, source, "must evaluate to " + (apply ? "Object" : "list(JSONPatch)")
                        + ", not " + result);
            }
        } catch (CelError err) {
            e.invalidString(at, source, err.getMessage());
        }
    }

    private static void binding(ObjectNode binding, Errs e) {
        if (binding.path("spec").path("policyName").asText("").isEmpty()) {
            e.required("spec.policyName", "");
        }
    }

    private static void oneOf(JsonNode spec, String field, String path, List<String> allowed, boolean required,
                              Errs e) {
        String value = spec.path(field).asText("");
        if (value.isEmpty()) {
            if (required) {
                e.required(path, "");
            }
        } else if (!allowed.contains(value)) {
            e.notSupported(path, "\"" + value + "\"", allowed);
        }
    }
}

package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.cel.AdmissionCel;
import io.kapi.machinery.cel.CelEnvironment;
import io.kapi.machinery.cel.CelError;
import io.kapi.registry.KindValidator;

/**
 * kube's validation of admission configuration (admissionregistration.k8s.io/v1) as far as Kapi checks it:
 * a ValidatingAdmissionPolicy needs {@code matchConstraints.resourceRules} and validations or audit
 * annotations, and every CEL expression of it must compile ({@code compilation failed: ...}); a binding
 * needs its policy's name and an action; webhook match conditions must compile.
 */
public final class AdmissionPolicies {

    public static final KindValidator POLICY = Rules.of(AdmissionPolicies::policy);
    public static final KindValidator BINDING = Rules.of(AdmissionPolicies::binding);
    public static final KindValidator WEBHOOKS = Rules.of(AdmissionPolicies::webhooks);

    private AdmissionPolicies() {
    }

    private static void policy(ObjectNode policy, Errs e) {
        JsonNode spec = policy.path("spec");
        if (!spec.path("matchConstraints").isObject()) {
            e.required("spec.matchConstraints", "");
        } else if (spec.path("matchConstraints").path("resourceRules").isEmpty()) {
            e.required("spec.matchConstraints.resourceRules", "");
        }
        if (spec.path("validations").isEmpty() && spec.path("auditAnnotations").isEmpty()) {
            e.required("spec.validations", "validations or auditAnnotations must contain at least one item");
        }
        CelEnvironment env = AdmissionCel.policies();
        expressions(spec.path("matchConditions"), "spec.matchConditions", "expression", env, e);
        expressions(spec.path("variables"), "spec.variables", "expression", env, e);
        expressions(spec.path("validations"), "spec.validations", "expression", env, e);
        expressions(spec.path("validations"), "spec.validations", "messageExpression", env, e);
        expressions(spec.path("auditAnnotations"), "spec.auditAnnotations", "valueExpression", env, e);
    }

    private static void binding(ObjectNode binding, Errs e) {
        JsonNode spec = binding.path("spec");
        if (spec.path("policyName").asText("").isEmpty()) {
            e.required("spec.policyName", "");
        }
        if (spec.path("validationActions").isEmpty()) {
            e.required("spec.validationActions", "at least one validation action is required");
        }
    }

    private static void webhooks(ObjectNode configuration, Errs e) {
        int i = 0;
        for (JsonNode webhook : configuration.path("webhooks")) {
            expressions(webhook.path("matchConditions"), "webhooks[" + i++ + "].matchConditions", "expression",
                    AdmissionCel.conditions(), e);
        }
    }

    /** Each item's {@code field} (when present) compiles in {@code env}. */
    static void expressions(JsonNode items, String path, String field, CelEnvironment env, Errs e) {
        int i = 0;
        for (JsonNode item : items) {
            JsonNode source = item.get(field);
            if (source != null && source.isTextual() && !source.asText().isEmpty()) {
                try {
                    env.compile(source.asText());
                } catch (CelError err) {
                    e.invalidString(path + "[" + i + "]." + field, source.asText(), err.getMessage());
                }
            }
            i++;
        }
    }
}

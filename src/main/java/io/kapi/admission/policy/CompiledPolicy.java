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
 * One ValidatingAdmissionPolicy (admissionregistration.k8s.io/v1), compiled: its paramKind, match
 * constraints and conditions, failure policy (default Fail), variables, validations and audit
 * annotations.
 *
 * @param paramKind the kind of its parameters, or null for a policy without
 */
record CompiledPolicy(String name, GroupVersionKind paramKind, MatchCriteria match, MatchConditions conditions,
                      boolean failOpen, List<Variable> variables, List<Validation> validations,
                      List<AuditAnnotation> auditAnnotations) {

    /** A named value the other expressions read as {@code variables.<name>}. */
    record Variable(String name, PolicyExpression expression) {
    }

    /**
     * One validation: its expression, the message (or {@code messageExpression}) for when it is false, and
     * the reason of the denial (default Invalid).
     */
    record Validation(PolicyExpression expression, String message, PolicyExpression messageExpression, String reason) {
    }

    /** An audit annotation {@code <policy>/<key>} valued by an expression (null or empty: none). */
    record AuditAnnotation(String key, PolicyExpression value) {
    }

    static CompiledPolicy of(ObjectNode policy) {
        JsonNode spec = policy.path("spec");
        List<Variable> variables = new ArrayList<>();
        spec.path("variables").forEach(v -> variables.add(new Variable(v.path("name").asText(),
                PolicyExpression.compile(v.path("expression").asText("")))));
        List<Validation> validations = new ArrayList<>();
        spec.path("validations").forEach(v -> validations.add(new Validation(
                PolicyExpression.compile(v.path("expression").asText("")), v.path("message").asText(""),
                PolicyExpression.optional(v, "messageExpression"), v.path("reason").asText("Invalid"))));
        List<AuditAnnotation> audits = new ArrayList<>();
        spec.path("auditAnnotations").forEach(v -> audits.add(new AuditAnnotation(v.path("key").asText(),
                PolicyExpression.compile(v.path("valueExpression").asText("")))));
        return new CompiledPolicy(ObjectMeta.of(policy).name(), paramKind(spec.path("paramKind")),
                MatchCriteria.ofMatchResources(spec.path("matchConstraints")),
                MatchConditions.compile(spec.path("matchConditions"), AdmissionCel.policies()),
                spec.path("failurePolicy").asText("Fail").equals("Ignore"), List.copyOf(variables),
                List.copyOf(validations), List.copyOf(audits));
    }

    static GroupVersionKind paramKind(JsonNode kind) {
        if (!kind.isObject() || kind.path("kind").asText("").isEmpty()) {
            return null;
        }
        String apiVersion = kind.path("apiVersion").asText("");
        int slash = apiVersion.indexOf('/');
        return new GroupVersionKind(slash < 0 ? "" : apiVersion.substring(0, slash),
                slash < 0 ? apiVersion : apiVersion.substring(slash + 1), kind.path("kind").asText());
    }
}

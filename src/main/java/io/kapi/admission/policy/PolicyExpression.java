package io.kapi.admission.policy;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.admission.cel.AdmissionCel;
import io.kapi.machinery.cel.CelError;
import io.kapi.machinery.cel.CelExpression;

/**
 * One CEL expression of a policy, compiled once in the policies' environment: either the program or
 * the compile error kube reports in the policy's type checking and, at admission, by the failure policy.
 */
record PolicyExpression(String source, CelExpression program, String compileError) {

    static PolicyExpression compile(String source) {
        return compile(source, AdmissionCel.policies());
    }

    /** {@code source} compiled in {@code env} (the mutations' environment, with object construction). */
    static PolicyExpression compile(String source, io.kapi.machinery.cel.CelEnvironment env) {
        try {
            return new PolicyExpression(source, env.compile(source), null);
        } catch (CelError e) {
            return new PolicyExpression(source, null, e.getMessage());
        }
    }

    /** The expression at {@code field} of {@code node}, or null when it has none. */
    static PolicyExpression optional(JsonNode node, String field) {
        String source = node.path(field).asText("");
        return source.isBlank() ? null : compile(source);
    }
}

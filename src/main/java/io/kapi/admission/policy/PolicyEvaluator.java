package io.kapi.admission.policy;

import io.kapi.machinery.cel.CelBudget;
import io.kapi.machinery.cel.CelError;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one compiled policy's variables, validations and audit annotations against one request's CEL
 * variables (and one parameter object), with kube's runtime budget shared by them all.
 */
final class PolicyEvaluator {

    /**
     * A validation that did not pass: false (with its message), or an error (compile, runtime, cost) that
     * counts only when the failure policy is Fail.
     */
    record Failure(int index, String message, String reason, boolean error) {

        /** kube's {@code error_type} label of the check: what kind of error, or {@code no_error} for a false result. */
        String errorType() {
            if (!error) {
                return "no_error";
            }
            return message.startsWith("compilation error") ? "compile_error"
                    : message.contains("cost limit exceeded") ? "out_of_budget" : "internal_error";
        }
    }

    /** What one evaluation found. */
    record Outcome(List<Failure> failures, Map<String, String> auditAnnotations) {
    }

    private PolicyEvaluator() {
    }

    /** @param activation object, oldObject, request, params, namespaceObject, authorizer */
    static Outcome evaluate(CompiledPolicy policy, Map<String, Object> activation, long budget) {
        CelBudget shared = new CelBudget(budget);
        Map<String, Object> vars = new HashMap<>(activation);
        vars.put("variables", variables(policy.variables(), vars, shared));
        List<Failure> failures = new ArrayList<>();
        for (int i = 0; i < policy.validations().size(); i++) {
            CompiledPolicy.Validation v = policy.validations().get(i);
            Failure f = validate(i, v, vars, shared);
            if (f != null && (!f.error() || !policy.failOpen())) {
                failures.add(f);
            }
        }
        Map<String, String> audits = new LinkedHashMap<>();
        for (CompiledPolicy.AuditAnnotation audit : policy.auditAnnotations()) {
            Object value = run(audit.value(), vars, shared);
            if (value instanceof String s && !s.isEmpty()) {
                audits.put(policy.name() + "/" + audit.key(), s);
            }
        }
        return new Outcome(failures, audits);
    }

    /**
     * The variables in order, each seeing the ones before ({@code vars} gets them as {@code variables});
     * a failing one is left out (its readers fail).
     */
    static Map<String, Object> variables(List<CompiledPolicy.Variable> variables, Map<String, Object> vars,
                                         CelBudget budget) {
        Map<String, Object> values = new LinkedHashMap<>();
        vars.put("variables", values);
        for (CompiledPolicy.Variable v : variables) {
            Object value = run(v.expression(), vars, budget);
            if (value != null && !(value instanceof CelError)) {
                values.put(v.name(), value);
            }
        }
        return values;
    }

    private static Failure validate(int index, CompiledPolicy.Validation v, Map<String, Object> vars, CelBudget budget) {
        PolicyExpression e = v.expression();
        if (e.program() == null) {
            return new Failure(index, "compilation error: " + e.compileError(), v.reason(), true);
        }
        try {
            if (e.program().test(vars, budget)) {
                return null;
            }
        } catch (CelError err) {
            return new Failure(index, "expression '" + e.source() + "' resulted in error: " + err.getMessage(),
                    v.reason(), true);
        }
        return new Failure(index, message(v, vars, budget), v.reason(), false);
    }

    /**
     * kube's message of a false validation: the messageExpression's string when it yields one that is not
     * blank and has no line break, else {@code message}, else {@code failed expression: <expression>}.
     */
    private static String message(CompiledPolicy.Validation v, Map<String, Object> vars, CelBudget budget) {
        if (v.messageExpression() != null) {
            Object m = run(v.messageExpression(), vars, budget);
            if (m instanceof String s && !s.isBlank() && !s.contains("\n")) {
                return s;
            }
        }
        return v.message().isEmpty() ? "failed expression: " + v.expression().source() : v.message();
    }

    /** The value, or the CelError it failed with (null for a compile error). */
    private static Object run(PolicyExpression e, Map<String, Object> vars, CelBudget budget) {
        if (e == null || e.program() == null) {
            return null;
        }
        try {
            return e.program().evaluate(vars, budget);
        } catch (CelError err) {
            return err;
        }
    }
}

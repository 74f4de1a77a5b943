package io.kapi.apiextensions.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.apiextensions.schema.StructuralSchema;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.cel.CelEnvironment;
import io.kapi.machinery.cel.CelError;
import io.kapi.machinery.cel.CelExpression;
import io.kapi.machinery.cel.CelLimits;
import io.kapi.machinery.cel.CelSchema;
import java.util.List;

/**
 * The CRD-time check of {@code x-kubernetes-validations} through the shared CEL environment: every rule
 * and message expression must compile with {@code self} (and {@code oldSelf}) typed by the node's schema,
 * and a rule's estimated cost must fit kube's per-expression limit; worded as kube words them
 * ({@code ...x-kubernetes-validations[0].rule: Invalid value: "self.x >": compilation failed: ERROR: ...}).
 */
final class CelRuleCompiler implements SchemaRules.RuleCompiler {

    @Override
    public void compile(StructuralSchema schema, String path, SchemaRules.Context ctx, List<FieldError> errors) {
        CelSchema self = CelSchema.of(schema.raw(), null, "Object");
        for (int i = 0; i < schema.validations().size(); i++) {
            JsonNode rule = schema.validations().get(i);
            String at = path + ".x-kubernetes-validations[" + i + "]";
            CelEnvironment.Builder env = CelEnvironment.builder().variable("self", self);
            if (rule.path("optionalOldSelf").asBoolean(false)) {
                env.optionalVariable("oldSelf", self);
            } else {
                env.variable("oldSelf", self);
            }
            CelEnvironment built = env.build();
            String source = rule.path("rule").asText("");
            try {
                CelExpression e = built.compile(source);
                long cost = e.estimatedCost();
                long limit = CelLimits.KUBE.staticCostLimit();
                if (cost > limit) {
                    errors.add(FieldError.forbidden(at + ".rule", "estimated rule cost exceeds budget by factor of "
                            + factor(cost, limit) + " (try simplifying the rule, or adding maxItems, maxProperties, "
                            + "and maxLength where arrays, maps, and strings are declared)"));
                }
            } catch (CelError e) {
                errors.add(FieldError.invalid(at + ".rule", GoStrings.quote(source), e.getMessage()));
            }
            if (rule.hasNonNull("messageExpression")) {
                String message = rule.get("messageExpression").asText();
                try {
                    built.compile(message);
                } catch (CelError e) {
                    errors.add(FieldError.invalid(at + ".messageExpression", GoStrings.quote(message),
                            "messageExpression " + e.getMessage()));
                }
            }
        }
    }

    /** Go's {@code %.1fx}-style factor kube prints ({@code 2.5x}). */
    private static String factor(long cost, long limit) {
        return String.format(java.util.Locale.ROOT, "%.1fx", (double) cost / limit);
    }
}

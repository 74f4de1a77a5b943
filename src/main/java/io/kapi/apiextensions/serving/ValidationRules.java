package io.kapi.apiextensions.serving;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.apiextensions.schema.StructuralSchema;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.cel.CelBudget;
import io.kapi.machinery.cel.CelEnvironment;
import io.kapi.machinery.cel.CelError;
import io.kapi.machinery.cel.CelExpression;
import io.kapi.machinery.cel.CelLimits;
import io.kapi.machinery.cel.CelSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code x-kubernetes-validations} rules of a structural schema, as kube's CEL validator runs them
 * on a custom resource: every rule of every schema node whose value is present, with {@code self} the
 * value (and {@code oldSelf} the stored one for transition rules, which run only on updates where the old
 * value exists unless {@code optionalOldSelf}); a failed rule is a field error at the node (plus its
 * {@code fieldPath}) with its {@code reason}, the value printed as the node's type and the detail its
 * {@code messageExpression}, {@code message} or {@code failed rule: <rule>}. All rules of one request
 * share kube's runtime cost budget. Rules are compiled once per schema node, on first use.
 */
final class ValidationRules {

    /** One compiled rule. */
    private record Rule(String source, CelExpression expression, CelExpression messageExpression, String message,
                        String reason, String fieldPath, boolean transition, boolean optionalOldSelf) {
    }

    private final Map<StructuralSchema, List<Rule>> compiled = new ConcurrentHashMap<>();

    /** The failures of {@code object} (and, on update, against {@code old}, else null). */
    List<FieldError> validate(JsonNode object, JsonNode old, StructuralSchema schema) {
        List<FieldError> errors = new ArrayList<>();
        walk(object, old, schema, "", new CelBudget(CelLimits.KUBE.runtimeBudget()), errors);
        return errors;
    }

    private void walk(JsonNode value, JsonNode old, StructuralSchema s, String path, CelBudget budget,
                      List<FieldError> errors) {
        if (s == null || value == null || value.isNull() || value.isMissingNode()) {
            return;
        }
        if (!s.validations().isEmpty()) {
            for (Rule rule : rules(s)) {
                check(rule, value, old, s, path, budget, errors);
            }
        }
        if (value.isObject()) {
            for (var e : value.properties()) {
                StructuralSchema prop = s.property(e.getKey());
                StructuralSchema sub = prop != null ? prop : s.additionalProperties();
                JsonNode before = old == null ? null : old.get(e.getKey());
                walk(e.getValue(), before, sub, path.isEmpty() ? e.getKey() : path + "." + e.getKey(), budget, errors);
            }
        } else if (value.isArray() && s.items() != null) {
            for (int i = 0; i < value.size(); i++) {
                JsonNode before = correlated(value.get(i), old, s);
                walk(value.get(i), before, s.items(), path + "[" + i + "]", budget, errors);
            }
        }
    }

    /** The old item of a map list with the same keys (other lists do not correlate, as in kube). */
    private static JsonNode correlated(JsonNode item, JsonNode old, StructuralSchema list) {
        if (old == null || !old.isArray() || !"map".equals(list.listType()) || list.listMapKeys().isEmpty()) {
            return null;
        }
        for (JsonNode candidate : old) {
            boolean same = true;
            for (String key : list.listMapKeys()) {
                same &= item.path(key).equals(candidate.path(key));
            }
            if (same) {
                return candidate;
            }
        }
        return null;
    }

    private static void check(Rule rule, JsonNode value, JsonNode old, StructuralSchema s, String path,
                              CelBudget budget, List<FieldError> errors) {
        if (rule.expression() == null || (rule.transition() && old == null && !rule.optionalOldSelf())) {
            return;
        }
        Map<String, Object> vars = new HashMap<>();
        vars.put("self", value);
        if (rule.transition()) {
            vars.put("oldSelf", old == null ? com.fasterxml.jackson.databind.node.MissingNode.getInstance() : old);
        }
        String at = rule.fieldPath().isEmpty() ? path : path + rule.fieldPath();
        if (at.startsWith(".")) {
            at = at.substring(1);
        }
        String type = GoStrings.quote(s.type().isEmpty() ? "object" : s.type());
        try {
            if (!rule.expression().test(vars, budget)) {
                errors.add(failure(rule, at, type, detail(rule, vars, budget)));
            }
        } catch (CelError e) {
            errors.add(FieldError.invalid(at, type, e.getMessage()));
        }
    }

    private static String detail(Rule rule, Map<String, Object> vars, CelBudget budget) {
        if (rule.messageExpression() != null) {
            try {
                Object m = rule.messageExpression().evaluate(vars, budget);
                if (m instanceof String text && !text.isBlank()) {
                    return text;
                }
            } catch (CelError e) {
                // kube falls back to the static message when the message expression fails
            }
        }
        return rule.message().isEmpty() ? "failed rule: " + rule.source().strip() : rule.message();
    }

    private static FieldError failure(Rule rule, String field, String type, String detail) {
        return switch (rule.reason()) {
            case "FieldValueForbidden" -> FieldError.forbidden(field, detail);
            case "FieldValueRequired" -> FieldError.required(field, detail);
            case "FieldValueDuplicate" -> new FieldError(FieldError.Type.DUPLICATE, field, type, detail);
            default -> FieldError.invalid(field, type, detail);
        };
    }

    private List<Rule> rules(StructuralSchema s) {
        return compiled.computeIfAbsent(s, ValidationRules::compile);
    }

    /** Compiles the rules of one node; a rule that does not compile (refused when the CRD was written) is skipped. */
    private static List<Rule> compile(StructuralSchema s) {
        CelSchema self = CelSchema.of(s.raw(), null, "Object");
        CelEnvironment plain = CelEnvironment.builder().variable("self", self).build();
        CelEnvironment transition = CelEnvironment.builder().variable("self", self).variable("oldSelf", self).build();
        List<Rule> out = new ArrayList<>();
        for (JsonNode r : s.validations()) {
            String source = r.path("rule").asText("");
            boolean optionalOldSelf = r.path("optionalOldSelf").asBoolean(false);
            boolean usesOld = source.contains("oldSelf");
            CelEnvironment env = usesOld ? (optionalOldSelf ? optional(self) : transition) : plain;
            out.add(new Rule(source, compileOrNull(env, source), r.hasNonNull("messageExpression")
                    ? compileOrNull(env, r.get("messageExpression").asText()) : null, r.path("message").asText(""),
                    r.path("reason").asText("FieldValueInvalid"), r.path("fieldPath").asText(""), usesOld,
                    optionalOldSelf));
        }
        return out;
    }

    private static CelEnvironment optional(CelSchema self) {
        return CelEnvironment.builder().variable("self", self).optionalVariable("oldSelf", self).build();
    }

    private static CelExpression compileOrNull(CelEnvironment env, String source) {
        try {
            return env.compile(source);
        } catch (CelError e) {
            return null;
        }
    }
}

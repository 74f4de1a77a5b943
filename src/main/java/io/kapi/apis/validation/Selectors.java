package io.kapi.apis.validation;

import io.kapi.machinery.GoValues;
import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.validation.Identifiers;
import io.kapi.machinery.validation.ObjectMetaValidator;
import java.util.List;
import java.util.Set;

/** {@code metav1.LabelSelector}: kube's {@code ValidateLabelSelector} and label matching on JSON trees. */
final class Selectors {

    private static final Set<String> OPERATORS = Set.of("In", "NotIn", "Exists", "DoesNotExist");

    private Selectors() {
    }

    /** {@code ValidateLabelSelector}: expressions' operators, values and keys, then matchLabels. */
    static void validate(JsonNode selector, String path, Errs e) {
        if (selector == null || !selector.isObject()) {
            return;
        }
        List<JsonNode> exprs = GoValues.items(selector.get("matchExpressions"));
        for (int i = 0; i < exprs.size(); i++) {
            JsonNode r = exprs.get(i);
            String p = path + ".matchExpressions[" + i + "]";
            String op = GoValues.text(r, "operator");
            int values = GoValues.items(r.get("values")).size();
            switch (op) {
                case "In", "NotIn" -> {
                    if (values == 0) {
                        e.required(p + ".values", "must be specified when `operator` is 'In' or 'NotIn'");
                    }
                }
                case "Exists", "DoesNotExist" -> {
                    if (values > 0) {
                        e.forbidden(p + ".values", "may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
                    }
                }
                default -> e.invalidString(p + ".operator", op, "not a valid selector operator");
            }
            String key = GoValues.text(r, "key");
            e.each(p + ".key", key, Identifiers.qualifiedName(key));
            List<JsonNode> vs = GoValues.items(r.get("values"));
            for (int j = 0; j < vs.size(); j++) {
                String v = vs.get(j).asText();
                e.each(p + ".values[" + j + "]", v, Identifiers.labelValue(v));
            }
        }
        JsonNode labels = selector.get("matchLabels");
        if (labels != null && labels.isObject()) {
            ObjectMetaValidator.validateLabels(labels, path + ".matchLabels").forEach(e::add);
        }
    }

    /** Whether a selector has neither matchLabels nor matchExpressions. */
    static boolean empty(JsonNode selector) {
        return selector == null || !selector.isObject()
                || (GoValues.at(selector, "matchLabels").isEmpty() && GoValues.at(selector, "matchExpressions").isEmpty());
    }

    /** Whether the selector's operators are all known (else LabelSelectorAsSelector fails). */
    static boolean parsable(JsonNode selector) {
        for (JsonNode r : GoValues.items(GoValues.at(selector, "matchExpressions"))) {
            if (!OPERATORS.contains(GoValues.text(r, "operator"))) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code labels} (a JSON object, may be missing) match a LabelSelector. */
    static boolean matches(JsonNode selector, JsonNode labels) {
        for (var e : GoValues.at(selector, "matchLabels").properties()) {
            if (!labels.has(e.getKey()) || !labels.get(e.getKey()).asText().equals(e.getValue().asText())) {
                return false;
            }
        }
        for (JsonNode r : GoValues.items(GoValues.at(selector, "matchExpressions"))) {
            String key = GoValues.text(r, "key");
            boolean present = labels.has(key);
            String value = present ? labels.get(key).asText() : null;
            boolean in = false;
            for (JsonNode v : GoValues.items(r.get("values"))) {
                in |= v.asText().equals(value);
            }
            boolean ok = switch (GoValues.text(r, "operator")) {
                case "In" -> present && in;
                case "NotIn" -> !present || !in;
                case "Exists" -> present;
                case "DoesNotExist" -> !present;
                default -> false;
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** Whether a map selector ({@code map[string]string}, e.g. a ReplicationController's) matches labels. */
    static boolean mapMatches(JsonNode selector, JsonNode labels) {
        for (var e : selector.properties()) {
            if (!labels.has(e.getKey()) || !labels.get(e.getKey()).asText().equals(e.getValue().asText())) {
                return false;
            }
        }
        return true;
    }
}

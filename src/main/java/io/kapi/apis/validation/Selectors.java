package io.kapi.apis.validation;

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
        List<JsonNode> exprs = Json.items(selector.get("matchExpressions"));
        for (int i = 0; i < exprs.size(); i++) {
            JsonNode r = exprs.get(i);
            String p = path + ".matchExpressions[" + i + "]";
            String op = Json.text(r, "operator");
            int values = Json.items(r.get("values")).size();
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
            String key = Json.text(r, "key");
            e.each(p + ".key", key, Identifiers.qualifiedName(key));
            List<JsonNode> vs = Json.items(r.get("values"));
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
                || (Json.at(selector, "matchLabels").isEmpty() && Json.at(selector, "matchExpressions").isEmpty());
    }

    /** Whether the selector's operators are all known (else LabelSelectorAsSelector fails). */
    static boolean parsable(JsonNode selector) {
        for (JsonNode r : Json.items(Json.at(selector, "matchExpressions"))) {
            if (!OPERATORS.contains(Json.text(r, "operator"))) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code labels} (a JSON object, may be missing) match a LabelSelector. */
    static boolean matches(JsonNode selector, JsonNode labels) {
        for (var e : Json.at(selector, "matchLabels").properties()) {
            if (!labels.has(e.getKey()) || !labels.get(e.getKey()).asText().equals(e.getValue().asText())) {
                return false;
            }
        }
        for (JsonNode r : Json.items(Json.at(selector, "matchExpressions"))) {
            String key = Json.text(r, "key");
            boolean present = labels.has(key);
            String value = present ? labels.get(key).asText() : null;
            boolean in = false;
            for (JsonNode v : Json.items(r.get("values"))) {
                in |= v.asText().equals(value);
            }
            boolean ok = switch (Json.text(r, "operator")) {
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

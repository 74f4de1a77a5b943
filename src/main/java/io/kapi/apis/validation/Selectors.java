package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.labels.LabelSelector;
import io.kapi.machinery.validation.Identifiers;
import io.kapi.machinery.validation.ObjectMetaValidator;
import java.util.List;

/** {@code metav1.LabelSelector}: kube's {@code ValidateLabelSelector}, and the selector it converts to. */
final class Selectors {

    private Selectors() {
    }

    /** {@code ValidateLabelSelector}: expressions' operators, values and keys, then matchLabels. */
    static void validate(JsonNode selector, String path, Errs e) {
        validate(selector, path, false, e);
    }

    /** {@code ValidateLabelSelector} with {@code AllowInvalidLabelValueInSelector}: expression values unchecked. */
    static void validate(JsonNode selector, String path, boolean allowInvalidValues, Errs e) {
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
            List<JsonNode> vs = allowInvalidValues ? List.of() : GoValues.items(r.get("values"));
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

    /**
     * {@code metav1.LabelSelectorAsSelector} of a selector field: {@link LabelSelector#NOTHING} when it is
     * absent (null), null when kube's conversion fails (an unknown operator, a bad key or value, values
     * the operator does not take).
     */
    static LabelSelector asSelector(JsonNode selector) {
        try {
            return LabelSelector.fromObject(selector);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}

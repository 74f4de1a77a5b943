package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.validation.Identifiers;
import java.util.ArrayList;
import java.util.List;

/**
 * Core's {@code ValidateNodeSelector} of a {@code core.NodeSelector} (terms of label expressions and
 * {@code metadata.name} field expressions), with label values checked, and the Go {@code %#v} rendering of
 * its terms for errors that report them.
 */
final class NodeSelectors {

    private NodeSelectors() {
    }

    /** {@code ValidateNodeSelector} at {@code path}: at least one term, each term's requirements. */
    static void validate(JsonNode selector, String path, Errs e) {
        String termsPath = path + ".nodeSelectorTerms";
        List<JsonNode> terms = GoValues.items(selector.get("nodeSelectorTerms"));
        if (terms.isEmpty()) {
            e.required(termsPath, "must have at least one node selector term");
            return;
        }
        for (int i = 0; i < terms.size(); i++) {
            String p = termsPath + "[" + i + "]";
            List<JsonNode> exprs = GoValues.items(terms.get(i).get("matchExpressions"));
            for (int j = 0; j < exprs.size(); j++) {
                labelRequirement(exprs.get(j), p + ".matchExpressions[" + j + "]", e);
            }
            List<JsonNode> fields = GoValues.items(terms.get(i).get("matchFields"));
            for (int j = 0; j < fields.size(); j++) {
                fieldRequirement(fields.get(j), p + ".matchFields[" + j + "]", e);
            }
        }
    }

    private static void labelRequirement(JsonNode r, String path, Errs e) {
        String op = GoValues.text(r, "operator");
        List<JsonNode> values = GoValues.items(r.get("values"));
        switch (op) {
            case "In", "NotIn" -> {
                if (values.isEmpty()) {
                    e.required(path + ".values", "must be specified when `operator` is 'In' or 'NotIn'");
                }
            }
            case "Exists", "DoesNotExist" -> {
                if (!values.isEmpty()) {
                    e.forbidden(path + ".values", "may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
                }
            }
            case "Gt", "Lt" -> {
                if (values.size() != 1) {
                    e.required(path + ".values", "must be specified single value when `operator` is 'Lt' or 'Gt'");
                }
            }
            default -> e.invalidString(path + ".operator", op, "not a valid selector operator");
        }
        String key = GoValues.text(r, "key");
        e.each(path + ".key", key, Identifiers.qualifiedName(key));
        for (int i = 0; i < values.size(); i++) {
            String v = values.get(i).asText("");
            e.each(path + ".values[" + i + "]", v, Identifiers.labelValue(v));
        }
    }

    private static void fieldRequirement(JsonNode r, String path, Errs e) {
        String op = GoValues.text(r, "operator");
        List<JsonNode> values = GoValues.items(r.get("values"));
        if (op.equals("In") || op.equals("NotIn")) {
            if (values.size() != 1) {
                e.required(path + ".values",
                        "must be only one value when `operator` is 'In' or 'NotIn' for node field selector");
            }
        } else {
            e.invalidString(path + ".operator", op, "not a valid selector operator");
        }
        String key = GoValues.text(r, "key");
        if (!key.equals("metadata.name")) {
            e.invalidString(path + ".key", key, "not a valid field selector key");
            return;
        }
        for (int i = 0; i < values.size(); i++) {
            String v = values.get(i).asText("");
            e.each(path + ".values[" + i + "]", v, Identifiers.dns1123Subdomain(v));
        }
    }

    /** The terms as Go's {@code %#v} prints a {@code []core.NodeSelectorTerm}. */
    static String renderTerms(JsonNode terms) {
        if (terms == null || !terms.isArray()) {
            return "[]core.NodeSelectorTerm(nil)";
        }
        List<String> parts = new ArrayList<>();
        for (JsonNode t : terms) {
            parts.add("core.NodeSelectorTerm{MatchExpressions:" + requirements(t.get("matchExpressions"))
                    + ", MatchFields:" + requirements(t.get("matchFields")) + "}");
        }
        return "[]core.NodeSelectorTerm{" + String.join(", ", parts) + "}";
    }

    private static String requirements(JsonNode list) {
        if (list == null || !list.isArray()) {
            return "[]core.NodeSelectorRequirement(nil)";
        }
        List<String> parts = new ArrayList<>();
        for (JsonNode r : list) {
            parts.add("core.NodeSelectorRequirement{Key:" + GoStrings.quote(GoValues.text(r, "key")) + ", Operator:"
                    + GoStrings.quote(GoValues.text(r, "operator")) + ", Values:" + Go.stringSlice(r.get("values")) + "}");
        }
        return "[]core.NodeSelectorRequirement{" + String.join(", ", parts) + "}";
    }
}

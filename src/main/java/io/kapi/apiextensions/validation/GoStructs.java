package io.kapi.apiextensions.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.apiextensions.Crd;
import io.kapi.machinery.GoStrings;
import java.util.ArrayList;
import java.util.List;

/**
 * Values of CRD validation errors as kube-apiserver prints them: it passes internal Go structs to
 * {@code field.Invalid}, which prints them with {@code %#v}. Pointers are printed as Go prints a
 * non-nil one (an address, which differs from run to run in kube too).
 */
final class GoStructs {

    private static final String ADDRESS = "(0xc000a1b2c0)";

    private GoStructs() {
    }

    /** {@code []string{"a", "b"}}. */
    static String strings(JsonNode array) {
        List<String> items = new ArrayList<>();
        array.forEach(v -> items.add(GoStrings.quote(v.asText())));
        return "[]string{" + String.join(", ", items) + "}";
    }

    /** The internal {@code []CustomResourceDefinitionVersion} (hoisted parts are nil in it). */
    static String versions(Crd crd, Hoisting hoisting) {
        List<String> items = new ArrayList<>();
        for (Crd.Version v : crd.versions()) {
            items.add("apiextensions.CustomResourceDefinitionVersion{Name:" + GoStrings.quote(v.name())
                    + ", Served:" + v.served() + ", Storage:" + v.storage() + ", Deprecated:" + v.deprecated()
                    + ", DeprecationWarning:(*string)" + pointer(v.node().get("deprecationWarning"))
                    + ", Schema:(*apiextensions.CustomResourceValidation)"
                    + pointer(hoisting.schema() ? null : v.node().get("schema"))
                    + ", Subresources:(*apiextensions.CustomResourceSubresources)"
                    + pointer(hoisting.subresources() ? null : v.node().get("subresources"))
                    + ", AdditionalPrinterColumns:[]apiextensions.CustomResourceColumnDefinition"
                    + slice(hoisting.columns() ? null : v.node().get("additionalPrinterColumns"))
                    + ", SelectableFields:[]apiextensions.SelectableField"
                    + slice(hoisting.selectable() ? null : v.node().get("selectableFields")) + "}");
        }
        return "[]apiextensions.CustomResourceDefinitionVersion{" + String.join(", ", items) + "}";
    }

    private static String pointer(JsonNode v) {
        return v == null || v.isNull() ? "(nil)" : ADDRESS;
    }

    private static String slice(JsonNode v) {
        return v == null || v.isNull() || v.isEmpty() ? "(nil)" : "{...}";
    }

    /** A {@code JSONSchemaProps} value: its fields as Go would print them, abbreviated. */
    static String schema(JsonNode s) {
        List<String> fields = new ArrayList<>();
        if (s.hasNonNull("type")) {
            fields.add("Type:" + GoStrings.quote(s.get("type").asText()));
        }
        if (s.hasNonNull("description")) {
            fields.add("Description:" + GoStrings.quote(s.get("description").asText()));
        }
        if (s.path("properties").isObject()) {
            fields.add("Properties:map[string]apiextensions.JSONSchemaProps{...}");
        }
        return "apiextensions.JSONSchemaProps{" + String.join(", ", fields) + "}";
    }
}

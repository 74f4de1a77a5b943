package io.kapi.apis.conversion;

import static io.kapi.apis.conversion.Nodes.copy;
import static io.kapi.apis.conversion.Nodes.has;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.conversion.Converter;
import java.util.Objects;

/**
 * CustomResourceDefinitions served as {@code apiextensions.k8s.io/v1} and stored as kube-apiserver stores
 * them, {@code v1beta1}, through kube's conversions via the internal version. To storage: {@code spec.version}
 * is the first version's name; a version's schema, subresources and printer columns move to
 * {@code spec.validation}, {@code spec.subresources} and {@code spec.additionalPrinterColumns} when every
 * version has the same (kube hoists them so on the way in from v1); a printer column's {@code jsonPath} is
 * v1beta1's {@code JSONPath}; {@code conversion.webhook} is {@code webhookClientConfig} and
 * {@code conversionReviewVersions}; {@code preserveUnknownFields} is always written (a pointer in v1beta1,
 * which defaults a missing one to true). From storage: v1beta1's defaults on decode, then the top-level
 * fields copied into every version, as kube's v1 conversion does. A CRD an earlier Kapi stored as
 * {@code v1} is read as it is.
 */
public final class CrdV1beta1Storage implements Converter {

    private static final String V1 = "apiextensions.k8s.io/v1";
    private static final String V1BETA1 = "apiextensions.k8s.io/v1beta1";
    private static final String KIND = "CustomResourceDefinition";

    @Override
    public ObjectNode toStorage(ObjectNode served) {
        ObjectNode out = Nodes.header(V1BETA1, KIND, served);
        JsonNode spec = Nodes.object(served, "spec");
        ObjectNode to = out.putObject("spec");
        copy(spec, "group", to);
        ArrayNode versions = spec.get("versions") instanceof ArrayNode a ? a.deepCopy() : Json.NODES.arrayNode();
        if (!versions.isEmpty()) {
            to.put("version", versions.get(0).path("name").asText());
        }
        copy(spec, "names", to);
        copy(spec, "scope", to);
        JsonNode schema = hoist(versions, "schema");
        if (schema != null) {
            to.set("validation", schema);
        }
        JsonNode subresources = hoist(versions, "subresources");
        if (subresources != null) {
            to.set("subresources", subresources);
        }
        for (JsonNode v : versions) {
            renameColumns(v.get("additionalPrinterColumns"), "jsonPath", "JSONPath");
        }
        JsonNode columns = hoist(versions, "additionalPrinterColumns");
        if (!versions.isEmpty() || spec.has("versions")) {
            to.set("versions", versions);
        }
        if (columns != null) {
            to.set("additionalPrinterColumns", columns);
        }
        if (spec.get("conversion") instanceof ObjectNode conversion) {
            ObjectNode c = to.putObject("conversion");
            copy(conversion, "strategy", c);
            JsonNode webhook = Nodes.object(conversion, "webhook");
            copy(webhook, "clientConfig", c, "webhookClientConfig");
            copy(webhook, "conversionReviewVersions", c);
        }
        to.put("preserveUnknownFields", spec.path("preserveUnknownFields").asBoolean(false));
        copy(served, "status", out);
        return out;
    }

    @Override
    public ObjectNode fromStorage(ObjectNode stored) {
        if (V1.equals(stored.path("apiVersion").asText())) {
            return stored.deepCopy();
        }
        ObjectNode out = Nodes.header(V1, KIND, stored);
        JsonNode spec = Nodes.object(stored, "spec");
        ObjectNode to = out.putObject("spec");
        copy(spec, "group", to);
        copy(spec, "names", to);
        copy(spec, "scope", to);
        ArrayNode versions = spec.get("versions") instanceof ArrayNode a && !a.isEmpty() ? a.deepCopy()
                : Json.NODES.arrayNode();
        if (versions.isEmpty() && !Nodes.text(spec, "version").isEmpty()) {
            // v1beta1's defaulting: the single version served and stored
            versions.addObject().put("name", Nodes.text(spec, "version")).put("served", true).put("storage", true);
        }
        for (JsonNode v : versions) {
            ObjectNode version = (ObjectNode) v;
            spread(spec, "validation", version, "schema");
            spread(spec, "subresources", version, "subresources");
            spread(spec, "additionalPrinterColumns", version, "additionalPrinterColumns");
            renameColumns(version.get("additionalPrinterColumns"), "JSONPath", "jsonPath");
            reorder(version);
        }
        to.set("versions", versions);
        if (spec.get("conversion") instanceof ObjectNode conversion) {
            ObjectNode c = to.putObject("conversion");
            String strategy = conversion.path("strategy").asText("None");
            c.put("strategy", strategy);
            JsonNode reviews = conversion.get("conversionReviewVersions");
            if ((reviews == null || reviews.isNull()) && strategy.equals("Webhook")) {
                reviews = Json.NODES.arrayNode().add("v1beta1");
            }
            if (has(conversion, "webhookClientConfig") || reviews != null && !reviews.isNull()) {
                ObjectNode webhook = c.putObject("webhook");
                copy(conversion, "webhookClientConfig", webhook, "clientConfig");
                if (reviews != null && !reviews.isNull()) {
                    webhook.set("conversionReviewVersions", reviews.deepCopy());
                }
            }
        } else {
            to.putObject("conversion").put("strategy", "None");
        }
        if (spec.path("preserveUnknownFields").asBoolean(!has(spec, "preserveUnknownFields"))) {
            to.put("preserveUnknownFields", true);
        }
        copy(stored, "status", out);
        return out;
    }

    /**
     * The value every version has at {@code field}, removed from them, when it is the same in all (and set);
     * else null, the versions untouched.
     */
    private static JsonNode hoist(ArrayNode versions, String field) {
        if (versions.isEmpty()) {
            return null;
        }
        JsonNode first = versions.get(0).get(field);
        for (JsonNode v : versions) {
            if (!Objects.equals(first, v.get(field))) {
                return null;
            }
        }
        if (first == null || first.isNull()) {
            return null;
        }
        for (JsonNode v : versions) {
            ((ObjectNode) v).remove(field);
        }
        return first.deepCopy();
    }

    /** The top-level {@code field} of a v1beta1 spec into a version that has none of its own. */
    private static void spread(JsonNode spec, String field, ObjectNode version, String as) {
        if (has(spec, field) && !has(version, as)) {
            version.set(as, spec.get(field).deepCopy());
        }
    }

    private static void renameColumns(JsonNode columns, String from, String to) {
        if (columns == null || !columns.isArray()) {
            return;
        }
        for (JsonNode column : columns) {
            if (column instanceof ObjectNode c && c.has(from)) {
                JsonNode value = c.remove(from);
                c.set(to, value);
            }
        }
    }

    /** A version's fields in the order of kube's Go type (the spread ones were appended). */
    private static void reorder(ObjectNode version) {
        ObjectNode copy = version.deepCopy();
        version.removeAll();
        for (String field : new String[] {"name", "served", "storage", "deprecated", "deprecationWarning", "schema",
                "subresources", "additionalPrinterColumns", "selectableFields"}) {
            copy(copy, field, version);
            copy.remove(field);
        }
        version.setAll(copy);
    }
}

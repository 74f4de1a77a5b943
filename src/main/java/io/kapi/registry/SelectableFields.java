package io.kapi.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.machinery.resource.ResourceFacts;
import io.kapi.machinery.resource.ResourceTable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fields a resource can be selected by, as kube-apiserver's {@code GetAttrs} and field-label
 * conversions define them: {@code metadata.name} and {@code metadata.namespace} for all, plus the
 * resource's own (the resource table's {@code selectableFields}). Values are rendered as kube-apiserver
 * renders them (absent booleans {@code false}, absent counts {@code 0}, absent strings empty).
 */
public final class SelectableFields {

    private final List<ResourceFacts.SelectableField> fields;

    private SelectableFields(List<ResourceFacts.SelectableField> fields) {
        this.fields = List.copyOf(fields);
    }

    public static SelectableFields of(List<ResourceFacts.SelectableField> fields) {
        return new SelectableFields(fields);
    }

    /** The selectable fields of a built-in resource, from the resource table. */
    public static SelectableFields of(ApiResource resource) {
        return of(ResourceTable.builtin().facts(resource).selectableFields());
    }

    /** 400 BadRequest, worded as kube-apiserver, when the selector names a field this resource lacks. */
    public void check(FieldSelector selector) {
        for (FieldSelector.Term t : selector.terms()) {
            if (!t.field().equals("metadata.name") && !t.field().equals("metadata.namespace")
                    && fields.stream().noneMatch(f -> f.path().equals(t.field()))) {
                throw ApiException.badRequest("field label not supported: " + t.field());
            }
        }
    }

    /** The selectable field values of an object. */
    public Map<String, String> of(ObjectNode object) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("metadata.name", object.path("metadata").path("name").asText(""));
        values.put("metadata.namespace", object.path("metadata").path("namespace").asText(""));
        for (ResourceFacts.SelectableField f : fields) {
            values.put(f.path(), value(object, f));
        }
        return values;
    }

    private static String value(ObjectNode object, ResourceFacts.SelectableField field) {
        JsonNode node = object;
        for (String part : field.from().split("\\.")) {
            node = node.path(part);
        }
        return switch (field.as()) {
            case "bool" -> Boolean.toString(node.asBoolean(false));
            case "count" -> Long.toString(node.asLong(0));
            default -> node.isValueNode() ? node.asText() : "";
        };
    }
}

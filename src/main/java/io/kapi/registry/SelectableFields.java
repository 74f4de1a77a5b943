package io.kapi.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.resource.ApiResource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fields each built-in resource can be selected by, as kube-apiserver's {@code GetAttrs} and
 * field-label conversions define them: {@code metadata.name} and {@code metadata.namespace} for all,
 * plus per-kind fields. Values are rendered as kube-apiserver renders them (absent booleans
 * {@code false}, absent counts {@code 0}, absent strings empty).
 */
public final class SelectableFields {

    private enum Render { TEXT, BOOL, COUNT }

    private record Field(String name, Render render) {
    }

    private static final Map<String, List<Field>> BY_RESOURCE = Map.ofEntries(
            Map.entry("/pods", List.of(text("spec.nodeName"), text("spec.restartPolicy"), text("spec.schedulerName"),
                    text("spec.serviceAccountName"), bool("spec.hostNetwork"), text("status.phase"),
                    text("status.podIP"), text("status.nominatedNodeName"))),
            Map.entry("/events", List.of(text("involvedObject.kind"), text("involvedObject.namespace"),
                    text("involvedObject.name"), text("involvedObject.uid"), text("involvedObject.apiVersion"),
                    text("involvedObject.resourceVersion"), text("involvedObject.fieldPath"), text("reason"),
                    text("reportingComponent"), new Field("source", Render.TEXT), text("type"))),
            Map.entry("/secrets", List.of(text("type"))),
            Map.entry("/namespaces", List.of(text("status.phase"))),
            Map.entry("/nodes", List.of(bool("spec.unschedulable"))),
            Map.entry("/replicationcontrollers", List.of(count("status.replicas"))),
            Map.entry("/services", List.of(text("spec.clusterIP"), text("spec.type"))),
            Map.entry("apps/replicasets", List.of(count("status.replicas"))),
            Map.entry("batch/jobs", List.of(count("status.successful"))),
            Map.entry("certificates.k8s.io/certificatesigningrequests", List.of(text("spec.signerName"))));

    private final List<Field> fields;

    private SelectableFields(List<Field> fields) {
        this.fields = fields;
    }

    public static SelectableFields of(ApiResource resource) {
        return new SelectableFields(BY_RESOURCE.getOrDefault(resource.group() + "/" + resource.name(), List.of()));
    }

    /** 400 BadRequest, worded as kube-apiserver, when the selector names a field this resource lacks. */
    public void check(FieldSelector selector) {
        for (FieldSelector.Term t : selector.terms()) {
            if (!t.field().equals("metadata.name") && !t.field().equals("metadata.namespace")
                    && fields.stream().noneMatch(f -> f.name().equals(t.field()))) {
                throw ApiException.badRequest("field label not supported: " + t.field());
            }
        }
    }

    /** The selectable field values of an object. */
    public Map<String, String> of(ObjectNode object) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("metadata.name", object.path("metadata").path("name").asText(""));
        values.put("metadata.namespace", object.path("metadata").path("namespace").asText(""));
        for (Field f : fields) {
            values.put(f.name(), value(object, f));
        }
        return values;
    }

    private static String value(ObjectNode object, Field field) {
        JsonNode node = object;
        if (field.name().equals("source")) {
            node = object.path("source").path("component");
        } else {
            for (String part : field.name().split("\\.")) {
                node = node.path(part);
            }
        }
        return switch (field.render()) {
            case TEXT -> node.isValueNode() ? node.asText() : "";
            case BOOL -> Boolean.toString(node.asBoolean(false));
            case COUNT -> Long.toString(node.asLong(0));
        };
    }

    private static Field text(String name) {
        return new Field(name, Render.TEXT);
    }

    private static Field bool(String name) {
        return new Field(name, Render.BOOL);
    }

    private static Field count(String name) {
        return new Field(name, Render.COUNT);
    }
}

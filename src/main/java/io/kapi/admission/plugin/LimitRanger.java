package io.kapi.admission.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.Attributes;
import io.kapi.admission.MutatingPlugin;
import io.kapi.admission.LiveObjects;
import io.kapi.admission.Operation;
import io.kapi.admission.ValidatingPlugin;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.quantity.Quantity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * kube-apiserver's default-on {@code LimitRanger}, for the {@code Container} items of the LimitRanges of a
 * new pod's namespace: containers get the {@code default} limits and {@code defaultRequest} requests
 * they lack (a default limit is also the default request, as LimitRange defaulting makes it), noted in
 * the {@code kubernetes.io/limit-ranger} annotation; then each container's requests and limits must lie
 * within {@code min} and {@code max}, worded as kube's ({@code maximum memory usage per Container is
 * 1Gi, but limit is 2Gi}).
 */
public final class LimitRanger implements MutatingPlugin, ValidatingPlugin {

    static final String ANNOTATION = "kubernetes.io/limit-ranger";
    private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
    public static final GroupVersionResource LIMIT_RANGES = new GroupVersionResource("", "v1", "limitranges");
    private static final List<String> KINDS = List.of("initContainers", "containers");

    private final LiveObjects ranges;

    /** @param ranges every LimitRange, as a watch keeps them */
    public LimitRanger(LiveObjects ranges) {
        this.ranges = ranges;
    }

    @Override
    public String name() {
        return "LimitRanger";
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.CREATE;
    }

    @Override
    public void admit(Attributes a) {
        if (!a.isMain("", "pods") || a.object() == null) {
            return;
        }
        Map<String, String> limits = new LinkedHashMap<>();
        Map<String, String> requests = new LinkedHashMap<>();
        for (JsonNode item : containerItems(a.target().namespace())) {
            item.path("default").properties().forEach(e -> limits.put(e.getKey(), e.getValue().asText()));
            item.path("default").properties().forEach(e -> requests.putIfAbsent(e.getKey(), e.getValue().asText()));
            item.path("defaultRequest").properties().forEach(e -> requests.put(e.getKey(), e.getValue().asText()));
        }
        if (limits.isEmpty() && requests.isEmpty()) {
            return;
        }
        List<String> notes = new ArrayList<>();
        for (String kind : KINDS) {
            for (JsonNode c : a.object().path("spec").path(kind)) {
                if (c instanceof ObjectNode container) {
                    fill(container, kind.equals("initContainers") ? "init container" : "container", requests, limits,
                            notes);
                }
            }
        }
        if (!notes.isEmpty()) {
            ObjectNode metadata = a.object().with("metadata");
            ObjectNode annotations = metadata.get("annotations") instanceof ObjectNode n ? n
                    : metadata.putObject("annotations");
            annotations.put(ANNOTATION, "LimitRanger plugin set: " + String.join("; ", notes));
        }
    }

    private static void fill(ObjectNode container, String kindWord, Map<String, String> requests,
                             Map<String, String> limits, List<String> notes) {
        ObjectNode resources = container.with("resources");
        TreeSet<String> setRequests = set(resources, "requests", requests);
        TreeSet<String> setLimits = set(resources, "limits", limits);
        String name = container.path("name").asText("");
        if (!setRequests.isEmpty()) {
            notes.add(String.join(", ", setRequests) + " request for " + kindWord + " " + name);
        }
        if (!setLimits.isEmpty()) {
            notes.add(String.join(", ", setLimits) + " limit for " + kindWord + " " + name);
        }
    }

    /** Sets each default the container lacks; the names set, sorted. */
    private static TreeSet<String> set(ObjectNode resources, String field, Map<String, String> defaults) {
        TreeSet<String> names = new TreeSet<>();
        if (defaults.isEmpty()) {
            return names;
        }
        ObjectNode values = resources.get(field) instanceof ObjectNode v ? v : resources.putObject(field);
        defaults.forEach((k, v) -> {
            if (!values.has(k)) {
                values.put(k, v);
                names.add(k);
            }
        });
        if (values.isEmpty()) {
            resources.remove(field);
        }
        return names;
    }

    @Override
    public void validate(Attributes a) {
        if (!a.isMain("", "pods") || a.object() == null) {
            return;
        }
        for (JsonNode item : containerItems(a.target().namespace())) {
            for (String kind : KINDS) {
                for (JsonNode c : a.object().path("spec").path(kind)) {
                    check(a, item, c.path("resources"));
                }
            }
        }
    }

    private static void check(Attributes a, JsonNode item, JsonNode resources) {
        for (var e : item.path("min").properties()) {
            Quantity min = Quantity.parseOrNull(e.getValue().asText());
            for (String field : List.of("requests", "limits")) {
                Quantity q = Quantity.parseOrNull(resources.path(field).path(e.getKey()).asText(null));
                String word = field.equals("requests") ? "request" : "limit";
                if (min != null && q == null && field.equals("requests")) {
                    refuse(a, "minimum " + e.getKey() + " usage per Container is " + min + ".  No request is specified");
                }
                if (min != null && q != null && q.compareTo(min) < 0) {
                    refuse(a, "minimum " + e.getKey() + " usage per Container is " + min + ", but " + word + " is " + q);
                }
            }
        }
        for (var e : item.path("max").properties()) {
            Quantity max = Quantity.parseOrNull(e.getValue().asText());
            Quantity limit = Quantity.parseOrNull(resources.path("limits").path(e.getKey()).asText(null));
            if (max != null && limit == null) {
                refuse(a, "maximum " + e.getKey() + " usage per Container is " + max + ".  No limit is specified");
            }
            if (max != null && limit.compareTo(max) > 0) {
                refuse(a, "maximum " + e.getKey() + " usage per Container is " + max + ", but limit is " + limit);
            }
            Quantity request = Quantity.parseOrNull(resources.path("requests").path(e.getKey()).asText(null));
            if (max != null && request != null && request.compareTo(max) > 0) {
                refuse(a, "maximum " + e.getKey() + " usage per Container is " + max + ", but request is " + request);
            }
        }
    }

    private static void refuse(Attributes a, String why) {
        throw ApiException.forbidden(PODS, a.target().name(), why, List.of());
    }

    private List<JsonNode> containerItems(String namespace) {
        List<JsonNode> items = new ArrayList<>();
        for (ObjectNode range : ranges.items()) {
            if (!ObjectMeta.of(range).namespace().equals(namespace)) {
                continue;
            }
            for (JsonNode item : range.path("spec").path("limits")) {
                if (item.path("type").asText("").equals("Container")) {
                    items.add(item);
                }
            }
        }
        return items;
    }
}

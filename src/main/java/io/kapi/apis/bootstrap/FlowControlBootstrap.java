package io.kapi.apis.bootstrap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.health.PostStartHook;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.registry.ListOptions;
import io.kapi.client.LocalClient;
import io.kapi.client.ResourceClient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The post-start hook {@code priority-and-fairness-config-producer}: keeps kube-apiserver's default
 * FlowSchemas and PriorityLevelConfigurations (data file {@code apis/bootstrap/flowcontrol.yaml}) in
 * place, with kube's ensure rules:
 * <ul>
 *   <li>a missing object is created, annotated {@code apf.kubernetes.io/autoupdate-spec: "true"};</li>
 *   <li>a mandatory object (exempt, catch-all) always gets the default spec back;</li>
 *   <li>a suggested object gets it back only while its annotation says {@code "true"} (missing
 *       annotation: only if never changed, generation 1); the annotation is then set to match.</li>
 * </ul>
 * Removing obsolete auto-updated objects that are no longer defaults is not done. The hook also
 * writes the {@code Dangling} condition of every FlowSchema once, as kube's config consumer keeps
 * it (the {@code MissingPL} column of {@code kubectl get flowschemas}); it is not kept up to date.
 */
final class FlowControlBootstrap implements PostStartHook {

    /** The data file of kube-apiserver's default flow-control objects. */
    static final String DATA = "flowcontrol.yaml";

    static final String AUTOUPDATE_SPEC = "apf.kubernetes.io/autoupdate-spec";
    private static final String API_VERSION = "flowcontrol.apiserver.k8s.io/v1";

    private final ResourceClient flowSchemas;
    private final ResourceClient priorityLevels;
    private final JsonNode defaults;

    FlowControlBootstrap(LocalClient client) {
        this.flowSchemas = client.resource("flowcontrol.apiserver.k8s.io", "v1", "flowschemas");
        this.priorityLevels = client.resource("flowcontrol.apiserver.k8s.io", "v1", "prioritylevelconfigurations");
        this.defaults = RbacPolicy.read(DATA);
    }

    @Override
    public String name() {
        return "priority-and-fairness-config-producer";
    }

    @Override
    public void run() {
        // Priority levels first: a flow schema refers to one. Within a kind the objects are independent.
        ensure(priorityLevels, objects("mandatoryPriorityLevelConfigurations", "PriorityLevelConfiguration"),
                objects("suggestedPriorityLevelConfigurations", "PriorityLevelConfiguration"));
        ensure(flowSchemas, objects("mandatoryFlowSchemas", "FlowSchema"), objects("suggestedFlowSchemas", "FlowSchema"));
        markDangling();
    }

    /** Sets each FlowSchema's Dangling condition to whether its priority level exists. */
    private void markDangling() {
        Map<String, ObjectNode> levels = Stores.listed(priorityLevels);
        for (ObjectNode fs : flowSchemas.list("")) {
            String level = fs.path("spec").path("priorityLevelConfiguration").path("name").asText();
            boolean missing = !levels.containsKey(Stores.key("", level));
            String status = missing ? "True" : "False";
            JsonNode current = condition(fs);
            if (current != null && status.equals(current.path("status").asText())) {
                continue;
            }
            ObjectNode condition = Json.object();
            condition.put("type", "Dangling");
            condition.put("status", status);
            condition.put("lastTransitionTime", ObjectMeta.format(Instant.now()));
            condition.put("reason", missing ? "NotFound" : "Found");
            condition.put("message", missing
                    ? "This FlowSchema references the PriorityLevelConfiguration object named \"" + level
                            + "\" but there is no such object"
                    : "This FlowSchema references the PriorityLevelConfiguration object named \"" + level
                            + "\" and it exists");
            ArrayNode conditions = Json.MAPPER.createArrayNode();
            for (JsonNode c : fs.path("status").path("conditions")) {
                if (!"Dangling".equals(c.path("type").asText())) {
                    conditions.add(c);
                }
            }
            conditions.add(condition);
            fs.withObjectProperty("status").set("conditions", conditions);
            try {
                flowSchemas.update(fs, "status");
            } catch (ApiException e) {
                // changed meanwhile: the next start sets it
            }
        }
    }

    private static JsonNode condition(ObjectNode fs) {
        for (JsonNode c : fs.path("status").path("conditions")) {
            if ("Dangling".equals(c.path("type").asText())) {
                return c;
            }
        }
        return null;
    }

    /** The default objects of one list of the data file, as they are created. */
    List<ObjectNode> objects(String list, String kind) {
        List<ObjectNode> result = new ArrayList<>();
        for (JsonNode entry : defaults.path(list)) {
            ObjectNode object = Json.object();
            object.put("apiVersion", API_VERSION);
            object.put("kind", kind);
            ObjectNode meta = object.putObject("metadata");
            meta.put("name", entry.path("name").asText());
            meta.putObject("annotations").put(AUTOUPDATE_SPEC, "true");
            object.set("spec", entry.path("spec").deepCopy());
            result.add(object);
        }
        return result;
    }

    /** Creates or reconciles the mandatory and the suggested objects of one kind, a few at a time. */
    private static void ensure(ResourceClient store, List<ObjectNode> mandatory, List<ObjectNode> suggested) {
        Map<String, ObjectNode> listed = Stores.listed(store);
        List<Runnable> writes = new ArrayList<>();
        mandatory.forEach(object -> writes.add(() -> ensure(store, object, listed, true)));
        suggested.forEach(object -> writes.add(() -> ensure(store, object, listed, false)));
        Concurrently.run("apf-bootstrap", writes);
    }

    private static void ensure(ResourceClient store, ObjectNode object, Map<String, ObjectNode> listed, boolean mandatory) {
        Stores.ensure(store, object, listed.get(Stores.key(ObjectMeta.of(object))), current -> reconciled(current, object, mandatory));
    }

    static ObjectNode reconciled(ObjectNode current, ObjectNode wanted, boolean mandatory) {
        boolean autoUpdate = mandatory || autoUpdateSpec(current);
        String flag = Boolean.toString(autoUpdate);
        ObjectNode annotations = ((ObjectNode) current.path("metadata")).withObjectProperty("annotations");
        if (!flag.equals(annotations.path(AUTOUPDATE_SPEC).asText(null))) {
            annotations.put(AUTOUPDATE_SPEC, flag);
        }
        if (autoUpdate && !current.path("spec").equals(wanted.path("spec"))) {
            current.set("spec", wanted.path("spec").deepCopy());
        }
        return current;
    }

    private static boolean autoUpdateSpec(ObjectNode current) {
        String value = current.path("metadata").path("annotations").path(AUTOUPDATE_SPEC).asText(null);
        if ("true".equalsIgnoreCase(value) || "false".equalsIgnoreCase(value)) {
            return Boolean.parseBoolean(value);
        }
        return ObjectMeta.of(current).generation() == 1;
    }
}

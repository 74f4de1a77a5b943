package io.kapi.endpoint.table;

import static io.kapi.endpoint.table.Columns.age;
import static io.kapi.endpoint.table.Columns.nameColumn;
import static io.kapi.registry.table.Column.integer;
import static io.kapi.registry.table.Column.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.kapi.machinery.GoValues;
import io.kapi.machinery.Json;
import io.kapi.registry.table.Column;
import io.kapi.registry.table.Doc;
import io.kapi.registry.table.KindPrinter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** The tables of the core ({@code ""}) group, as kube's {@code printers.go}. Limit ranges have none: they get the default table. */
public final class CorePrinters {

    private static final String SPEC = "spec";
    private static final String[] POD_TEMPLATE = {"spec", "template", "spec"};

    private CorePrinters() {
    }

    public static KindPrinter podTemplates() {
        return KindPrinter.of(nameColumn(),
                string("Containers", Doc.text(Containers.NAMES_DOC), (o, now) -> Containers.names(o, "template", SPEC)),
                string("Images", Doc.text(Containers.IMAGES_DOC), (o, now) -> Containers.images(o, "template", SPEC)),
                string("Pod Labels", Doc.text("The labels for the pod template."),
                        (o, now) -> Labels.format(GoValues.at(o, "template", "metadata", "labels"))));
    }

    public static KindPrinter endpoints() {
        return KindPrinter.of(nameColumn(),
                string("Endpoints", Doc.core("Endpoints", "subsets"), (o, now) -> Endpoints.format(o)),
                age());
    }

    public static KindPrinter namespaces() {
        return KindPrinter.of(nameColumn(),
                string("Status", Doc.text("The status of the namespace"), (o, now) -> GoValues.text(o, "status", "phase")),
                age());
    }

    public static KindPrinter secrets() {
        return KindPrinter.of(nameColumn(),
                string("Type", Doc.core("Secret", "type"), (o, now) -> GoValues.text(o, "type")),
                string("Data", Doc.core("Secret", "data"), (o, now) -> (long) GoValues.size(o, "data")),
                age());
    }

    public static KindPrinter serviceAccounts() {
        return KindPrinter.of(nameColumn(),
                string("Secrets", Doc.core("ServiceAccount", "secrets"), (o, now) -> (long) GoValues.size(o, "secrets")),
                age());
    }

    public static KindPrinter configMaps() {
        return KindPrinter.of(nameColumn(),
                string("Data", Doc.core("ConfigMap", "data"),
                        (o, now) -> (long) (GoValues.size(o, "data") + GoValues.size(o, "binaryData"))),
                age());
    }

    public static KindPrinter resourceQuotas() {
        return KindPrinter.of(nameColumn(),
                string("Request", Doc.text("Request represents a minimum amount of cpu/memory that a container may consume."),
                        (o, now) -> quota(o, false)),
                string("Limit", Doc.text("Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node."),
                        (o, now) -> quota(o, true)),
                age());
    }

    public static KindPrinter pods() {
        return KindPrinter.of(nameColumn(),
                string("Ready", Doc.text("The aggregate readiness state of this pod for accepting traffic."),
                        (o, now) -> PodStatusSummary.of(o, now).ready()),
                string("Status", Doc.text("The aggregate status of the containers in this pod."),
                        (o, now) -> PodStatusSummary.of(o, now).status()),
                string("Restarts", Doc.text("The number of times the containers in this pod have been restarted and when the last container in this pod has restarted."),
                        (o, now) -> PodStatusSummary.of(o, now).restarts()),
                age(),
                string("IP", Doc.core("PodStatus", "podIP"), (o, now) -> podIP(o)).wide(),
                string("Node", Doc.core("PodSpec", "nodeName"),
                        (o, now) -> GoValues.textOr(o, Labels.NONE, SPEC, "nodeName")).wide(),
                string("Nominated Node", Doc.core("PodStatus", "nominatedNodeName"),
                        (o, now) -> GoValues.textOr(o, Labels.NONE, "status", "nominatedNodeName")).wide(),
                string("Readiness Gates", Doc.core("PodSpec", "readinessGates"), (o, now) -> readinessGates(o)).wide())
                .withConditions(CorePrinters::podConditions);
    }

    private static String podIP(JsonNode pod) {
        List<JsonNode> ips = GoValues.items(pod, "status", "podIPs");
        String ip = ips.isEmpty() ? GoValues.text(pod, "status", "podIP") : GoValues.text(ips.getFirst(), "ip");
        return ip.isEmpty() ? Labels.NONE : ip;
    }

    private static String readinessGates(JsonNode pod) {
        List<JsonNode> gates = GoValues.items(pod, SPEC, "readinessGates");
        if (gates.isEmpty()) {
            return Labels.NONE;
        }
        int trueCount = 0;
        for (JsonNode gate : gates) {
            String type = GoValues.text(gate, "conditionType");
            for (JsonNode cond : GoValues.items(pod, "status", "conditions")) {
                if (type.equals(GoValues.text(cond, "type"))) {
                    if ("True".equals(GoValues.text(cond, "status"))) {
                        trueCount++;
                    }
                    break;
                }
            }
        }
        return trueCount + "/" + gates.size();
    }

    /** A finished pod's row says so: kubectl uses it to tell completed pods apart. */
    private static ArrayNode podConditions(JsonNode pod) {
        String phase = GoValues.text(pod, "status", "phase");
        String message = switch (phase) {
            case "Succeeded" -> "The pod has completed successfully.";
            case "Failed" -> "The pod failed.";
            default -> null;
        };
        if (message == null) {
            return null;
        }
        ArrayNode conditions = Json.MAPPER.createArrayNode();
        conditions.addObject().put("type", "Completed").put("status", "True").put("reason", phase).put("message", message);
        return conditions;
    }

    public static KindPrinter replicationControllers() {
        List<Column> cols = new ArrayList<>(List.of(nameColumn(),
                integer("Desired", Doc.core("ReplicationControllerSpec", "replicas"), (o, now) -> GoValues.integer(o, SPEC, "replicas")),
                integer("Current", Doc.core("ReplicationControllerStatus", "replicas"), (o, now) -> GoValues.integer(o, "status", "replicas")),
                integer("Ready", Doc.core("ReplicationControllerStatus", "readyReplicas"), (o, now) -> GoValues.integer(o, "status", "readyReplicas")),
                age()));
        cols.addAll(Containers.wideColumns(POD_TEMPLATE));
        cols.add(string("Selector", Doc.core("ReplicationControllerSpec", "selector"),
                (o, now) -> Labels.format(GoValues.at(o, SPEC, "selector"))).wide());
        return new KindPrinter(List.copyOf(cols), null);
    }

    public static KindPrinter services() {
        return KindPrinter.of(nameColumn(),
                string("Type", Doc.core("ServiceSpec", "type"), (o, now) -> GoValues.textOr(o, "ClusterIP", SPEC, "type")),
                string("Cluster-IP", Doc.core("ServiceSpec", "clusterIP"), (o, now) -> clusterIP(o)),
                string("External-IP", Doc.core("ServiceSpec", "externalIPs"), (o, now) -> externalIP(o)),
                string("Port(s)", Doc.core("ServiceSpec", "ports"), (o, now) -> servicePorts(o)),
                age(),
                string("Selector", Doc.core("ServiceSpec", "selector"),
                        (o, now) -> Labels.format(GoValues.at(o, SPEC, "selector"))).wide());
    }

    private static String clusterIP(JsonNode svc) {
        List<JsonNode> ips = GoValues.items(svc, SPEC, "clusterIPs");
        String ip = ips.isEmpty() ? GoValues.text(svc, SPEC, "clusterIP") : ips.getFirst().asText();
        return ip.isEmpty() ? Labels.NONE : ip;
    }

    private static String externalIP(JsonNode svc) {
        List<String> external = new ArrayList<>();
        GoValues.items(svc, SPEC, "externalIPs").forEach(ip -> external.add(ip.asText()));
        return switch (GoValues.textOr(svc, "ClusterIP", SPEC, "type")) {
            case "ClusterIP", "NodePort" -> external.isEmpty() ? Labels.NONE : String.join(",", external);
            case "LoadBalancer" -> {
                String lb = loadBalancerIngress(GoValues.at(svc, "status", "loadBalancer"));
                List<String> all = new ArrayList<>();
                if (!lb.isEmpty()) {
                    all.addAll(List.of(lb.split(",")));
                }
                all.addAll(external);
                yield all.isEmpty() ? "<pending>" : String.join(",", all);
            }
            case "ExternalName" -> GoValues.text(svc, SPEC, "externalName");
            default -> HumanDuration.UNKNOWN;
        };
    }

    /** The sorted, de-duplicated IPs (else host names) of a load balancer status, not clipped: the server prints wide. */
    static String loadBalancerIngress(JsonNode status) {
        TreeSet<String> out = new TreeSet<>();
        for (JsonNode ing : GoValues.items(status, "ingress")) {
            String ip = GoValues.text(ing, "ip");
            String host = GoValues.text(ing, "hostname");
            if (!ip.isEmpty()) {
                out.add(ip);
            } else if (!host.isEmpty()) {
                out.add(host);
            }
        }
        return String.join(",", out);
    }

    private static String servicePorts(JsonNode svc) {
        List<String> pieces = new ArrayList<>();
        for (JsonNode p : GoValues.items(svc, SPEC, "ports")) {
            String protocol = GoValues.textOr(p, "TCP", "protocol");
            long nodePort = GoValues.integer(p, "nodePort");
            pieces.add(nodePort > 0
                    ? GoValues.integer(p, "port") + ":" + nodePort + "/" + protocol
                    : GoValues.integer(p, "port") + "/" + protocol);
        }
        return pieces.isEmpty() ? Labels.NONE : String.join(",", pieces);
    }

    public static KindPrinter nodes() {
        return KindPrinter.of(nameColumn(),
                string("Status", Doc.text("The status of the node"), (o, now) -> nodeStatus(o)),
                string("Roles", Doc.text("The roles of the node"), (o, now) -> nodeRoles(o)),
                age(),
                string("Version", Doc.core("NodeSystemInfo", "kubeletVersion"), (o, now) -> GoValues.text(o, "status", "nodeInfo", "kubeletVersion")),
                string("Internal-IP", Doc.core("NodeStatus", "addresses"), (o, now) -> nodeAddress(o, "InternalIP")).wide(),
                string("External-IP", Doc.core("NodeStatus", "addresses"), (o, now) -> nodeAddress(o, "ExternalIP")).wide(),
                string("OS-Image", Doc.core("NodeSystemInfo", "osImage"),
                        (o, now) -> GoValues.textOr(o, HumanDuration.UNKNOWN, "status", "nodeInfo", "osImage")).wide(),
                string("Kernel-Version", Doc.core("NodeSystemInfo", "kernelVersion"),
                        (o, now) -> GoValues.textOr(o, HumanDuration.UNKNOWN, "status", "nodeInfo", "kernelVersion")).wide(),
                string("Container-Runtime", Doc.core("NodeSystemInfo", "containerRuntimeVersion"),
                        (o, now) -> GoValues.textOr(o, HumanDuration.UNKNOWN, "status", "nodeInfo", "containerRuntimeVersion")).wide());
    }

    private static String nodeStatus(JsonNode node) {
        JsonNode ready = null;
        for (JsonNode cond : GoValues.items(node, "status", "conditions")) {
            if ("Ready".equals(GoValues.text(cond, "type"))) {
                ready = cond; // kube keeps the last condition of a type
            }
        }
        List<String> status = new ArrayList<>();
        if (ready == null) {
            status.add("Unknown");
        } else {
            status.add("True".equals(GoValues.text(ready, "status")) ? "Ready" : "NotReady");
        }
        if (GoValues.bool(node, SPEC, "unschedulable")) {
            status.add("SchedulingDisabled");
        }
        return String.join(",", status);
    }

    /** Roles from {@code node-role.kubernetes.io/<role>} label keys and the {@code kubernetes.io/role} label value, sorted. */
    private static String nodeRoles(JsonNode node) {
        TreeSet<String> roles = new TreeSet<>();
        JsonNode labels = GoValues.at(node, "metadata", "labels");
        if (labels.isObject()) {
            labels.properties().forEach(e -> {
                String k = e.getKey();
                if (k.startsWith("node-role.kubernetes.io/")) {
                    String role = k.substring("node-role.kubernetes.io/".length());
                    if (!role.isEmpty()) {
                        roles.add(role);
                    }
                } else if (k.equals("kubernetes.io/role") && !e.getValue().asText().isEmpty()) {
                    roles.add(e.getValue().asText());
                }
            });
        }
        return roles.isEmpty() ? Labels.NONE : String.join(",", roles);
    }

    private static String nodeAddress(JsonNode node, String type) {
        for (JsonNode a : GoValues.items(node, "status", "addresses")) {
            if (type.equals(GoValues.text(a, "type"))) {
                return GoValues.text(a, "address");
            }
        }
        return Labels.NONE;
    }

    public static KindPrinter componentStatuses() {
        return KindPrinter.of(nameColumn(),
                string("Status", Doc.text("Status of the component conditions"), (o, now) -> componentCondition(o)[0]),
                string("Message", Doc.text("Message of the component conditions"), (o, now) -> componentCondition(o)[1]),
                string("Error", Doc.text("Error of the component conditions"), (o, now) -> componentCondition(o)[2]));
    }

    private static String[] componentCondition(JsonNode cs) {
        for (JsonNode c : GoValues.items(cs, "conditions")) {
            if ("Healthy".equals(GoValues.text(c, "type"))) {
                String status = "True".equals(GoValues.text(c, "status")) ? "Healthy" : "Unhealthy";
                return new String[] {status, GoValues.text(c, "message"), GoValues.text(c, "error")};
            }
        }
        return new String[] {"Unknown", "", ""};
    }

    /** {@code resource: used/hard} for each hard limit, sorted by name; {@code limits.*} go to the LIMIT column. */
    private static String quota(JsonNode rq, boolean limits) {
        Map<String, String> hard = new TreeMap<>();
        JsonNode h = GoValues.at(rq, "status", "hard");
        if (h.isObject()) {
            h.properties().forEach(e -> hard.put(e.getKey(), e.getValue().asText()));
        }
        List<String> out = new ArrayList<>();
        hard.forEach((resource, hardQty) -> {
            String[] pieces = resource.split("\\.", -1);
            boolean isLimit = pieces.length > 1 && pieces[0].equals("limits");
            if (isLimit == limits) {
                out.add(resource + ": " + GoValues.textOr(rq, "0", "status", "used", resource) + "/" + hardQty);
            }
        });
        return String.join(", ", out);
    }
}

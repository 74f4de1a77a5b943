package io.kapi.apis.defaults;

import static io.kapi.apis.defaults.Fields.child;
import static io.kapi.apis.defaults.Fields.emptyObject;
import static io.kapi.apis.defaults.Fields.integerPointer;
import static io.kapi.apis.defaults.Fields.items;
import static io.kapi.apis.defaults.Fields.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * Defaults of a {@code PodSpec} wherever it appears (pods and every pod template), as core/v1's
 * {@code SetDefaults_PodSpec} plus its volumes and containers, and of what only a {@code Pod} gets
 * ({@code SetDefaults_Pod}: enableServiceLinks, requests from limits, host ports on the host network).
 *
 * <p>Also the round trip through kube's internal type that users see: the deprecated
 * {@code serviceAccount} mirrors {@code serviceAccountName} (filled from it when only the old name
 * is given), and {@code status.podIP}/{@code podIPs} and {@code hostIP}/{@code hostIPs} agree.
 */
final class PodSpecs {

    private PodSpecs() {
    }

    /** A {@code PodTemplateSpec} ({@code template} of workloads): its spec, not Pod-only defaults. */
    static void template(ObjectNode template) {
        ObjectNode spec = child(template, "spec");
        if (spec != null) {
            spec(spec);
        }
    }

    /** A whole Pod: Pod-only defaults first, as kube's generated defaulter orders them. */
    static void pod(ObjectNode pod) {
        ObjectNode spec = Fields.ensure(pod, "spec");
        for (String list : new String[] {"containers", "initContainers"}) {
            for (ObjectNode container : items(spec, list)) {
                requestsFromLimits(container);
            }
        }
        Fields.bool(spec, "enableServiceLinks", true);
        if (spec.path("hostNetwork").asBoolean(false)) {
            for (String list : new String[] {"containers", "initContainers"}) {
                for (ObjectNode container : items(spec, list)) {
                    for (ObjectNode port : items(container, "ports")) {
                        if (Fields.zero(port, "hostPort") && port.has("containerPort")) {
                            port.set("hostPort", port.get("containerPort"));
                        }
                    }
                }
            }
        }
        spec(spec);
        ObjectNode status = child(pod, "status");
        CoreDefaults.mirrorFirst(status, "podIP", "podIPs", "ip");
        CoreDefaults.mirrorFirst(status, "hostIP", "hostIPs", "ip");
        for (String list : new String[] {"initContainerStatuses", "containerStatuses", "ephemeralContainerStatuses"}) {
            for (ObjectNode containerStatus : items(status, list)) {
                ResourceLists.round(containerStatus, "allocatedResources");
                ResourceLists.requirements(child(containerStatus, "resources"));
            }
        }
    }

    static void spec(ObjectNode spec) {
        text(spec, "dnsPolicy", "ClusterFirst");
        text(spec, "restartPolicy", "Always");
        emptyObject(spec, "securityContext");
        integerPointer(spec, "terminationGracePeriodSeconds", 30);
        text(spec, "schedulerName", "default-scheduler");
        serviceAccount(spec);
        ResourceLists.round(spec, "overhead");
        ResourceLists.requirements(child(spec, "resources"));
        for (ObjectNode volume : items(spec, "volumes")) {
            Volumes.volume(volume);
        }
        for (String list : new String[] {"initContainers", "containers", "ephemeralContainers"}) {
            for (ObjectNode container : items(spec, list)) {
                Containers.container(container);
            }
        }
    }

    private static void serviceAccount(ObjectNode spec) {
        String name = Fields.text(spec, "serviceAccountName");
        if (name.isEmpty()) {
            name = Fields.text(spec, "serviceAccount");
        }
        if (name.isEmpty()) {
            spec.remove("serviceAccount");
        } else {
            spec.put("serviceAccountName", name);
            spec.put("serviceAccount", name);
        }
    }

    private static void requestsFromLimits(ObjectNode container) {
        ObjectNode resources = child(container, "resources");
        ObjectNode limits = child(resources, "limits");
        if (limits == null || limits.isEmpty()) {
            return;
        }
        ObjectNode requests = Fields.ensure(resources, "requests");
        for (Map.Entry<String, JsonNode> limit : limits.properties()) {
            if (!requests.has(limit.getKey())) {
                requests.set(limit.getKey(), limit.getValue().deepCopy());
            }
        }
    }
}

package io.kapi.apis.subresources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.handlers.ResourceRequest;
import io.kapi.endpoint.handlers.VerbHandler;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.StatusReason;
import io.kapi.registry.Registry;
import java.util.ArrayList;
import java.util.List;

/**
 * The connect subresources that need a kubelet or a network path to pods and services
 * ({@code pods/log|exec|attach|portforward|proxy}, {@code nodes/proxy}, {@code services/proxy}):
 * Kapi has neither, so each answers at once with a Status, never a hang.
 *
 * <p>Where kube-apiserver itself answers without a backend, the answer is its own: logs of a pod
 * not yet scheduled are empty, exec/attach/portforward of such a pod are 400 {@code pod x does not
 * have a host assigned}, a container that the pod lacks is 400, proxying to a pod without an IP is
 * 400 {@code address not allowed}, to a service without endpoints 503 {@code no endpoints available
 * for service "x"}, and a missing pod, node or service is 404. Where kube-apiserver would dial a
 * kubelet or pod, Kapi answers 503 ServiceUnavailable saying no kubelet is connected, where
 * kube-apiserver answers its dial error.
 */
public record NoBackend(Registry registry) implements VerbHandler {

    @Override
    public RestResponse handle(ResourceRequest r) {
        String sub = r.info().subresource();
        String kind = r.resource().name();
        String name = r.info().name();
        String target = name.contains(":") ? name.split(":")[name.split(":").length == 3 ? 1 : 0] : name;
        if (sub.startsWith("proxy")) {
            return switch (kind) {
                case "pods" -> podProxy(r, target);
                case "services" -> serviceProxy(r, target);
                default -> throw noKubelet(r.store().get("", target).path("metadata").path("name").asText());
            };
        }
        ObjectNode pod = r.store().get(r.info().namespace(), name);
        String container = r.http().param("container");
        if (!sub.equals("portforward")) {
            checkContainer(pod, container);
        }
        String node = pod.path("spec").path("nodeName").asText("");
        if (node.isEmpty()) {
            if (sub.equals("log")) {
                return RestResponse.bytes(200, "text/plain", new byte[0]);
            }
            throw new ApiException(StatusReason.BAD_REQUEST, "pod %s does not have a host assigned".formatted(name));
        }
        if (simulated(node)) {
            throw noRuntime(sub, node);
        }
        throw noKubelet(node);
    }

    /** Whether {@code node} is one of Kapi's simulated nodes (its kubelet runs no container runtime). */
    private boolean simulated(String node) {
        return registry.resource("", "v1", "nodes").flatMap(registry::store).map(s -> {
            try {
                JsonNode a = s.get("", node).path("metadata").path("annotations");
                return a.path("kapi.dev/simulated").asText("").equals("true")
                        || a.path("kwok.x-k8s.io/node").asText("").equals("fake");
            } catch (ApiException e) {
                return false;
            }
        }).orElse(false);
    }

    /**
     * A simulated node's kubelet answers as a kubelet whose container runtime is down: 400 (kube-apiserver
     * relays the kubelet's error as it does any kubelet 400), with kubelet's {@code container runtime is
     * down} and why.
     */
    private static ApiException noRuntime(String sub, String node) {
        String what = switch (sub) {
            case "log" -> "failed to get container logs";
            case "exec" -> "failed to exec in container";
            case "attach" -> "failed to attach to container";
            default -> "failed to port-forward to pod";
        };
        return new ApiException(StatusReason.BAD_REQUEST, "%s: container runtime is down: node %s is simulated by "
                .formatted(what, GoStrings.quote(node)) + "Kapi and runs no containers");
    }

    private RestResponse podProxy(ResourceRequest r, String pod) {
        ObjectNode object = r.store().get(r.info().namespace(), pod);
        if (object.path("status").path("podIP").asText("").isEmpty()) {
            throw new ApiException(StatusReason.BAD_REQUEST, "address not allowed");
        }
        throw new ApiException(StatusReason.SERVICE_UNAVAILABLE, 503,
                "error trying to reach service: Kapi has no network path to pods", ApiException.Details.NONE);
    }

    private RestResponse serviceProxy(ResourceRequest r, String service) {
        r.store().get(r.info().namespace(), service);
        boolean hasAddresses = registry.resource("", "v1", "endpoints").flatMap(registry::store)
                .map(s -> {
                    try {
                        ObjectNode ep = s.get(r.info().namespace(), service);
                        for (JsonNode subset : ep.path("subsets")) {
                            if (!subset.path("addresses").isEmpty()) {
                                return true;
                            }
                        }
                    } catch (ApiException e) {
                        if (e.code() != 404) {
                            throw e;
                        }
                    }
                    return false;
                }).orElse(false);
        if (!hasAddresses) {
            throw new ApiException(StatusReason.SERVICE_UNAVAILABLE, 503,
                    "no endpoints available for service %s".formatted(GoStrings.quote(service)),
                    ApiException.Details.NONE);
        }
        throw new ApiException(StatusReason.SERVICE_UNAVAILABLE, 503,
                "error trying to reach service: Kapi has no network path to service endpoints",
                ApiException.Details.NONE);
    }

    /** kube-apiserver's validateContainer for logs, exec and attach. */
    private static void checkContainer(ObjectNode pod, String container) {
        String podName = pod.path("metadata").path("name").asText();
        JsonNode spec = pod.path("spec");
        if (container == null || container.isEmpty()) {
            int count = spec.path("containers").size();
            if (count == 1) {
                return;
            }
            String message = "a container name must be specified for pod " + podName;
            if (count > 1) {
                List<String> all = new ArrayList<>();
                for (String list : List.of("initContainers", "containers", "ephemeralContainers")) {
                    all.addAll(names(spec.path(list)));
                }
                message += ", choose one of: [" + String.join(" ", all) + "]";
            }
            throw new ApiException(StatusReason.BAD_REQUEST, message);
        }
        for (String list : List.of("containers", "initContainers", "ephemeralContainers")) {
            if (names(spec.path(list)).contains(container)) {
                return;
            }
        }
        throw new ApiException(StatusReason.BAD_REQUEST,
                "container %s is not valid for pod %s".formatted(container, podName));
    }

    private static List<String> names(JsonNode containers) {
        List<String> names = new ArrayList<>();
        containers.forEach(c -> names.add(c.path("name").asText()));
        return names;
    }

    private static ApiException noKubelet(String node) {
        return new ApiException(StatusReason.SERVICE_UNAVAILABLE, 503,
                "error dialing backend: no kubelet is connected to this server for node %s"
                        .formatted(GoStrings.quote(node)), ApiException.Details.NONE);
    }
}

package io.kapi.workloads;

import io.kapi.client.LocalClient;
import io.kapi.informers.SharedInformers;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * kube-controller-manager's workload controllers, each on the shared informers and acting through the API
 * as its kube identity: {@code replicaset-controller}, {@code replicationcontroller-controller},
 * {@code deployment-controller}, {@code endpoints-controller}, {@code endpointslice-controller}. Pods stay as
 * they are (Pending without a kubelet): the controllers count what the Pods' status says.
 */
public final class Workloads {

    /** Each controller's kube name and the service account kube-controller-manager runs it as. */
    public record Controller(String name, String serviceAccount) {
    }

    public static final List<Controller> ALL = List.of(
            new Controller("replicaset-controller", "replicaset-controller"),
            new Controller("replicationcontroller-controller", "replication-controller"),
            new Controller("deployment-controller", "deployment-controller"),
            new Controller("endpoints-controller", "endpoint-controller"),
            new Controller("endpointslice-controller", "endpointslice-controller"),
            new Controller("statefulset-controller", "statefulset-controller"),
            new Controller("daemonset-controller", "daemon-set-controller"));

    private Workloads() {
    }

    /**
     * The controllers {@code enabled} selects, each a post-start hook that starts it and a resource to close.
     *
     * @param clientFor the client acting as a service account of {@code kube-system}
     */
    public static List<WorkloadController> create(Predicate<String> enabled,
            Function<String, LocalClient> clientFor, SharedInformers informers, Clock clock) {
        List<WorkloadController> made = new ArrayList<>();
        for (Controller c : ALL) {
            if (!enabled.test(c.name())) {
                continue;
            }
            LocalClient client = clientFor.apply(c.serviceAccount());
            made.add(switch (c.name()) {
                case "replicaset-controller" -> new ReplicaSetController(ReplicaSetController.Kind.REPLICA_SETS,
                        client, informers, clock);
                case "replicationcontroller-controller" -> new ReplicaSetController(
                        ReplicaSetController.Kind.REPLICATION_CONTROLLERS, client, informers, clock);
                case "deployment-controller" -> new DeploymentController(client, informers, clock);
                case "endpoints-controller" -> new EndpointsController(client, informers, clock);
                case "endpointslice-controller" -> new EndpointSliceController(client, informers, clock);
                case "statefulset-controller" -> new StatefulSetController(client, informers, clock);
                case "daemonset-controller" -> new DaemonSetController(client, informers, clock);
                default -> throw new IllegalStateException(c.name());
            });
        }
        return made;
    }
}

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
 * {@code deployment-controller}, {@code endpoints-controller}, {@code endpointslice-controller},
 * {@code endpointslice-mirroring-controller}, {@code disruption-controller}, {@code pod-garbage-collector-controller},
 * {@code horizontal-pod-autoscaler-controller}. Pods stay as
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
            new Controller("job-controller", "job-controller"),
            new Controller("cronjob-controller", "cronjob-controller"),
            new Controller("ttl-after-finished-controller", "ttl-after-finished-controller"),
            new Controller("disruption-controller", "disruption-controller"),
            new Controller("pod-garbage-collector-controller", "pod-garbage-collector"),
            new Controller("endpointslice-mirroring-controller", "endpointslicemirroring-controller"),
            new Controller("horizontal-pod-autoscaler-controller", "horizontal-pod-autoscaler"),
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
                case "job-controller" -> new JobController(client, informers, clock);
                case "cronjob-controller" -> new CronJobController(client, informers, clock);
                case "ttl-after-finished-controller" -> new TtlAfterFinishedController(client, informers, clock);
                case "disruption-controller" -> new DisruptionController(client, informers, clock);
                case "pod-garbage-collector-controller" -> new PodGarbageCollector(client, informers, clock,
                        PodGarbageCollector.THRESHOLD, PodGarbageCollector.QUARANTINE);
                case "endpointslice-mirroring-controller" -> new EndpointSliceMirroringController(client, informers,
                        clock);
                case "horizontal-pod-autoscaler-controller" -> new HorizontalPodAutoscalerController(client,
                        informers, clock);
                case "statefulset-controller" -> new StatefulSetController(client, informers, clock);
                case "daemonset-controller" -> new DaemonSetController(client, informers, clock);
                default -> throw new IllegalStateException(c.name());
            });
        }
        return made;
    }
}

package io.kapi.apis.bootstrap;

import io.kapi.health.PostStartHook;
import io.kapi.registry.Registry;
import io.kapi.storage.Storage;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The objects kube-apiserver creates when it starts, as post-start hooks named as kube names them:
 * {@code rbac/bootstrap-roles}, {@code scheduling/bootstrap-system-priority-classes},
 * {@code priority-and-fairness-config-producer}, {@code apiservice-registration-controller} and
 * {@code bootstrap-controller}. Also owns the
 * background loops behind them: the kubernetes endpoints reconciler (every 10 s, as kube's
 * {@code --endpoint-reconciler-type=lease}) and, when {@code standaloneControllers}, the cluster role
 * aggregation that kube-controller-manager would otherwise run. {@link #close()} stops the loops and
 * removes this server from the kubernetes endpoints; call it before closing the storage.
 */
public final class BootstrapHooks implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(BootstrapHooks.class.getName());
    static final Duration ENDPOINT_INTERVAL = Duration.ofSeconds(10);
    static final Duration LEASE_TTL = Duration.ofSeconds(15);
    static final Duration AGGREGATION_INTERVAL = Duration.ofSeconds(2);

    /**
     * Where this server is reached, for the {@code kubernetes} service.
     *
     * @param serviceClusterIpRange {@code --service-cluster-ip-range}, e.g. {@code 10.96.0.0/12}
     * @param advertiseAddress {@code --advertise-address} (or the bind address); {@code 0.0.0.0} or
     *        empty picks the host's first non-loopback IPv4 address
     * @param securePort the HTTPS port actually bound
     */
    public record Endpoint(String serviceClusterIpRange, String advertiseAddress, int securePort) {
    }

    private final List<PostStartHook> hooks;
    private final KubernetesServiceController kubernetesService;
    private final List<Periodic> loops = new ArrayList<>();
    private final Optional<ClusterRoleAggregation> aggregation;
    private boolean closed;

    private BootstrapHooks(Registry registry, Storage storage, Endpoint endpoint, boolean standaloneControllers) {
        String serviceIp = NetworkAddresses.firstServiceIp(endpoint.serviceClusterIpRange());
        String advertise = NetworkAddresses.advertise(endpoint.advertiseAddress());
        this.kubernetesService = new KubernetesServiceController(registry,
                new MasterLeases(storage, Clock.systemUTC(), LEASE_TTL), serviceIp, advertise, endpoint.securePort());
        this.aggregation = standaloneControllers
                ? Optional.of(new ClusterRoleAggregation(Stores.of(registry, "rbac.authorization.k8s.io", "v1",
                        "clusterroles")))
                : Optional.empty();
        this.hooks = List.of(
                new BootstrapRoles(RbacPolicy.load(), registry, aggregation),
                new SystemPriorityClasses(registry),
                new FlowControlBootstrap(registry),
                new LocalApiServices(registry, Clock.systemUTC()),
                new StartingHook(kubernetesService, this::startLoops));
    }

    /** The hooks and their loops; nothing runs until the server runs the hooks. */
    public static BootstrapHooks create(Registry registry, Storage storage, Endpoint endpoint,
                                        boolean standaloneControllers) {
        return new BootstrapHooks(registry, storage, endpoint, standaloneControllers);
    }

    public List<PostStartHook> hooks() {
        return hooks;
    }

    private synchronized void startLoops() {
        if (closed || !loops.isEmpty()) {
            return;
        }
        loops.add(Periodic.start("kubernetes-service-reconciler", ENDPOINT_INTERVAL, Duration.ofSeconds(1),
                kubernetesService::reconcile));
        aggregation.ifPresent(a -> loops.add(Periodic.start("clusterrole-aggregation", AGGREGATION_INTERVAL,
                AGGREGATION_INTERVAL, a::reconcileAll)));
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        boolean started = !loops.isEmpty();
        loops.forEach(Periodic::close);
        if (started) {
            try {
                kubernetesService.removeSelf();
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, "could not remove this server from the kubernetes endpoints: {0}", e.getMessage());
            }
        }
    }

    /** Runs the first reconcile as the hook, then starts the loops. */
    private record StartingHook(KubernetesServiceController controller, Runnable start) implements PostStartHook {

        @Override
        public String name() {
            return controller.name();
        }

        @Override
        public void run() {
            controller.run();
            start.run();
        }
    }
}

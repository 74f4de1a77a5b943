package io.kapi.apis.bootstrap;

import io.kapi.client.LocalClient;
import io.kapi.health.HealthCheck;
import io.kapi.health.PostStartHook;
import io.kapi.informers.PassController;
import io.kapi.informers.SharedInformers;
import io.kapi.machinery.GroupVersionResource;
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
 * {@code priority-and-fairness-config-producer}, {@code kube-apiserver-autoregistration} (with its check
 * {@code autoregister-completion}), {@code bootstrap-controller} and the apiserver
 * identity lease's {@code start-kube-apiserver-identity-lease-controller} and
 * {@code start-kube-apiserver-identity-lease-garbage-collector}. Also owns the
 * background loops behind them: the kubernetes endpoints reconciler (every 10 s, as kube's
 * {@code --endpoint-reconciler-type=lease}) and, when {@code standaloneControllers}, the cluster role
 * aggregation that kube-controller-manager would otherwise run. {@link #close()} stops the loops and
 * removes this server from the kubernetes endpoints; call it before closing the storage.
 */
public final class BootstrapHooks implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(BootstrapHooks.class.getName());
    static final Duration ENDPOINT_INTERVAL = Duration.ofSeconds(10);
    static final Duration LEASE_TTL = Duration.ofSeconds(15);
    /** How soon after a ClusterRole change the aggregated roles are brought up to date. */
    static final Duration AGGREGATION_SPACING = Duration.ofMillis(20);
    private static final GroupVersionResource CLUSTER_ROLES =
            new GroupVersionResource("rbac.authorization.k8s.io", "v1", "clusterroles");
    /** kube-apiserver's IdentityLeaseRenewIntervalPeriod and IdentityLeaseGCPeriod. */
    static final Duration IDENTITY_RENEW_INTERVAL = Duration.ofSeconds(10);
    static final Duration IDENTITY_GC_INTERVAL = Duration.ofHours(1);

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
    private final LocalApiServices localApiServices;
    private final KubernetesServiceController kubernetesService;
    private final List<PassController> loops = new ArrayList<>();
    private final Optional<ClusterRoleAggregation> aggregation;
    private final SharedInformers informers;
    private boolean serviceReconciling;
    private boolean closed;

    private BootstrapHooks(LocalClient client, Registry registry, SharedInformers informers, Storage storage,
                           Endpoint endpoint, boolean standaloneControllers) {
        this.informers = informers;
        String serviceIp = NetworkAddresses.firstServiceIp(endpoint.serviceClusterIpRange());
        String advertise = NetworkAddresses.advertise(endpoint.advertiseAddress());
        this.kubernetesService = new KubernetesServiceController(client,
                new MasterLeases(storage, Clock.systemUTC(), LEASE_TTL), serviceIp, advertise, endpoint.securePort());
        this.aggregation = standaloneControllers
                ? Optional.of(new ClusterRoleAggregation(client.resource("rbac.authorization.k8s.io", "v1",
                        "clusterroles")))
                : Optional.empty();
        IdentityLease identity = new IdentityLease(client.resource("coordination.k8s.io", "v1", "leases"),
                Clock.systemUTC(), IdentityLease.hostname());
        this.localApiServices = new LocalApiServices(client.resource("apiregistration.k8s.io", "v1", "apiservices"),
                registry);
        this.hooks = List.of(
                new BootstrapRoles(RbacPolicy.load(), client, aggregation),
                new SystemPriorityClasses(client),
                new FlowControlBootstrap(client),
                localApiServices,
                new StartingHook(kubernetesService, this::startLoops),
                looping("start-kube-apiserver-identity-lease-controller", IDENTITY_RENEW_INTERVAL, identity::renew),
                looping("start-kube-apiserver-identity-lease-garbage-collector", IDENTITY_GC_INTERVAL,
                        identity::collectGarbage));
    }

    /** A hook that runs {@code task} once (a failure is only logged, as kube's controllers start anyway), then periodically. */
    private PostStartHook looping(String name, Duration interval, Runnable task) {
        return PostStartHook.of(name, () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "{0} failed, retrying: {1}", name, e.getMessage());
            }
            startLoop(name, interval, task);
        });
    }

    /** Runs {@code task} every {@code interval} (kube runs these with {@code wait.Until}); a failure is retried sooner. */
    private synchronized void startLoop(String name, Duration interval, Runnable task) {
        if (!closed) {
            PassController loop = new PassController(name, Duration.ZERO, task).resyncEvery(interval);
            loops.add(loop);
            loop.startAfterPass();
        }
    }

    /** Parses the bootstrap data files (RBAC policy, flow control), which are kept for the JVM. */
    public static void preloadData() {
        RbacPolicy.load();
        RbacPolicy.read(FlowControlBootstrap.DATA);
    }

    /** The hooks and their loops; nothing runs until the server runs the hooks. */
    public static BootstrapHooks create(LocalClient client, Registry registry, SharedInformers informers,
                                        Storage storage, Endpoint endpoint, boolean standaloneControllers) {
        return new BootstrapHooks(client, registry, informers, storage, endpoint, standaloneControllers);
    }

    public List<PostStartHook> hooks() {
        return hooks;
    }

    /**
     * kube-aggregator's boot-sequence check {@code autoregister-completion}: every local APIService of a served
     * built-in group-version has been seen available.
     */
    public HealthCheck autoregisterCompletion() {
        return localApiServices.completion();
    }

    /**
     * The kubernetes endpoints reconciler (every 10 s, as kube's), and the ClusterRole aggregation
     * controller, which aggregates on every ClusterRole change (kube-controller-manager's
     * {@code clusterrole-aggregation}, on the ClusterRoles' shared informer).
     */
    private synchronized void startLoops() {
        if (closed || serviceReconciling) {
            return;
        }
        serviceReconciling = true;
        startLoop("kubernetes-service-reconciler", ENDPOINT_INTERVAL, kubernetesService::reconcile);
        aggregation.ifPresent(a -> {
            PassController aggregating = new PassController("clusterrole-aggregation", AGGREGATION_SPACING,
                    a::reconcileAll).watching(informers.informer(CLUSTER_ROLES));
            loops.add(aggregating);
            aggregating.start();
        });
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        boolean started = serviceReconciling;
        loops.forEach(PassController::close);
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

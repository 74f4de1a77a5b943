package io.kapi.assembly;

import io.kapi.aggregator.AggregatorConfig;
import io.kapi.authn.AuthenticationConfig;
import io.kapi.authz.AuthorizationConfig;
import io.kapi.storage.etcd.EtcdConfig;
import io.kapi.flowcontrol.FlowControls;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the API layers need from the command line, after defaulting and validation. Build one with
 * {@link #builder()}; every value has kube-apiserver's default.
 *
 * @param dataDir the data directory (embedded store, generated certificates)
 * @param storageBackend {@code embedded}, {@code memory} or {@code etcd3}
 * @param etcdServers etcd endpoints when the backend is etcd3
 * @param serviceClusterIpRange e.g. {@code 10.96.0.0/12}, or an IPv4,IPv6 pair for dual-stack
 * @param serviceNodePortRange e.g. {@code 30000-32767}
 * @param advertiseAddress the address other members of the cluster reach this server at
 * @param securePort the HTTPS port actually bound
 * @param standalone whether to run the in-process controllers (namespace deletion)
 * @param eventTtl how long events are kept after their last write ({@code --event-ttl})
 * @param serviceAccountIssuer the {@code iss} of service-account tokens ({@code --service-account-issuer})
 * @param authorizationModes {@code --authorization-mode}, in order
 * @param admission the admission plugins asked for
 * @param etcd how to reach etcd when the backend is etcd3 (else null)
 * @param authentication the authentication flags (client CAs, token files, OIDC, webhooks, ...)
 * @param authorization the authorization modes' files and caches
 * @param features {@code --feature-gates} and {@code --runtime-config}
 * @param aggregator the aggregation layer's flags (proxy client certificate, endpoint routing)
 * @param flowControl {@code --enable-priority-and-fairness} and the in-flight limits
 * @param warmOpenApi whether the OpenAPI documents are built once the server has started ({@code bin/kapi}),
 *        else on their first request (the default: a test's server seldom serves them, and the build costs
 *        a second of CPU)
 * @param metrics the metrics flags
 * @param flowControl {@code --enable-priority-and-fairness} and the in-flight limits
 * @param controllers the in-process controllers {@code --controllers} selects (when {@code standalone})
 * @param encryption encryption at rest ({@code --encryption-provider-config})
 * @param storageMediaType {@code --storage-media-type}: the encoding of built-in kinds at rest
 * @param simulation the simulated nodes to register ({@code --simulated-nodes}) and their kubelets' settings
 * @param scheduler {@code --scheduler}: whether Kapi's scheduler runs; null for the default ({@link #schedulerOn})
 */
public record ApiConfig(Path dataDir, String storageBackend, List<String> etcdServers,
                        String serviceClusterIpRange, String serviceNodePortRange, String advertiseAddress,
                        int securePort, boolean standalone, Duration eventTtl, String serviceAccountIssuer,
                        List<String> authorizationModes, Admission admission, EtcdConfig etcd,
                        AuthenticationConfig authentication, AuthorizationConfig authorization, Features features,
                        AggregatorConfig aggregator, boolean warmOpenApi,
                        io.kapi.metrics.MetricsOptions metrics, FlowControls.Settings flowControl,
                        io.kapi.controllers.ControllerSelection controllers,
                        io.kapi.encryption.EncryptionOptions encryption, String storageMediaType,
                        io.kapi.simulation.SimulationConfig simulation, Boolean scheduler) {

    /**
     * The feature gates and the API versions served beyond the defaults; both checked at wiring time only.
     */
    public record Features(io.kapi.machinery.features.FeatureGates gates,
                           io.kapi.machinery.resource.ApiEnablement apis) {

        public static final Features DEFAULT = new Features(io.kapi.machinery.features.FeatureGates.DEFAULT,
                io.kapi.machinery.resource.ApiEnablement.DEFAULT);

        public Features {
            Objects.requireNonNull(gates, "gates");
            Objects.requireNonNull(apis, "apis");
        }
    }

    /**
     * {@code --enable-admission-plugins} and {@code --disable-admission-plugins}: added to and taken
     * from kube-apiserver's default set, run in kube-apiserver's order; {@code --admission-control-config-file}
     * (null for none) configures them.
     */
    public record Admission(List<String> enable, List<String> disable, Path configFile) {

        public static final Admission DEFAULT = new Admission(List.of(), List.of());
        private static final String SERVICE_ACCOUNT_PLUGIN = "ServiceAccount";

        public Admission {
            enable = List.copyOf(enable);
            disable = List.copyOf(disable);
        }

        public Admission(List<String> enable, List<String> disable) {
            this(enable, disable, null);
        }

        /**
         * These plugins as a bare API server runs them, the way envtest and kube's integration tests start
         * kube-apiserver: with no controller making each namespace's {@code default} service account, the
         * ServiceAccount plugin (which refuses a pod whose account is missing) is off unless named in
         * {@link #enable()} or already in {@link #disable()}.
         */
        public Admission bare() {
            if (enable.contains(SERVICE_ACCOUNT_PLUGIN) || disable.contains(SERVICE_ACCOUNT_PLUGIN)) {
                return this;
            }
            List<String> off = new ArrayList<>(disable);
            off.add(SERVICE_ACCOUNT_PLUGIN);
            return new Admission(enable, off, configFile);
        }
    }

    public ApiConfig {
        Objects.requireNonNull(dataDir, "dataDir");
        etcdServers = List.copyOf(etcdServers);
        authorizationModes = List.copyOf(authorizationModes);
        Objects.requireNonNull(admission, "admission");
        Objects.requireNonNull(authentication, "authentication");
        Objects.requireNonNull(authorization, "authorization");
        Objects.requireNonNull(features, "features");
        Objects.requireNonNull(aggregator, "aggregator");
        Objects.requireNonNull(controllers, "controllers");
        Objects.requireNonNull(simulation, "simulation");
    }

    /** The controllers that run: those selected when standalone, none otherwise. */
    public io.kapi.controllers.ControllerSelection effectiveControllers() {
        return standalone ? controllers : io.kapi.controllers.ControllerSelection.NONE;
    }

    /** Whether Kapi's scheduler runs: as {@code --scheduler} says, else when simulated nodes are configured. */
    public boolean schedulerOn() {
        return scheduler != null ? scheduler : simulatedNodesConfigured();
    }

    /** Whether {@code --simulated-nodes} or {@code --simulated-nodes-config} asked for simulated nodes. */
    public boolean simulatedNodesConfigured() {
        return !simulation.nodeNames().isEmpty();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Collects the values; starts from kube-apiserver's defaults and the memory backend. */
    public static final class Builder {
        private Path dataDir = Path.of("kapi-data");
        private String storageBackend = "memory";
        private List<String> etcdServers = List.of();
        private String serviceClusterIpRange = "10.96.0.0/12";
        private String serviceNodePortRange = "30000-32767";
        private String advertiseAddress = "127.0.0.1";
        private int securePort = 6443;
        private boolean standalone;
        private Duration eventTtl = Duration.ofHours(1);
        private String serviceAccountIssuer;
        private List<String> authorizationModes = List.of("AlwaysAllow");
        private Admission admission = Admission.DEFAULT;
        private Features features = Features.DEFAULT;
        private EtcdConfig etcd;
        private AuthenticationConfig authentication = AuthenticationConfig.DEFAULT;
        private AuthorizationConfig authorization = AuthorizationConfig.DEFAULT;
        private AggregatorConfig aggregator = AggregatorConfig.DEFAULT;
        private boolean warmOpenApi;
        private io.kapi.metrics.MetricsOptions metrics = io.kapi.metrics.MetricsOptions.DEFAULT;
        private FlowControls.Settings flowControl = FlowControls.Settings.DEFAULT;
        private io.kapi.controllers.ControllerSelection controllers = io.kapi.controllers.ControllerSelection.DEFAULT;
        private io.kapi.encryption.EncryptionOptions encryption = io.kapi.encryption.EncryptionOptions.NONE;
        private String storageMediaType = io.kapi.registry.AtRest.PROTOBUF;
        private io.kapi.simulation.SimulationConfig simulation = io.kapi.simulation.SimulationConfig.NONE;
        private Boolean scheduler;

        public Builder dataDir(Path v) {
            dataDir = v;
            return this;
        }

        public Builder storageBackend(String v) {
            storageBackend = v;
            return this;
        }

        public Builder etcdServers(List<String> v) {
            etcdServers = v;
            return this;
        }

        public Builder serviceClusterIpRange(String v) {
            serviceClusterIpRange = v;
            return this;
        }

        public Builder serviceNodePortRange(String v) {
            serviceNodePortRange = v;
            return this;
        }

        public Builder advertiseAddress(String v) {
            advertiseAddress = v;
            return this;
        }

        public Builder securePort(int v) {
            securePort = v;
            return this;
        }

        public Builder standalone(boolean v) {
            standalone = v;
            return this;
        }

        public Builder eventTtl(Duration v) {
            eventTtl = v;
            return this;
        }

        public Builder serviceAccountIssuer(String v) {
            serviceAccountIssuer = v;
            return this;
        }

        public Builder authorizationModes(List<String> v) {
            authorizationModes = v;
            return this;
        }

        public Builder admission(Admission v) {
            admission = v;
            return this;
        }

        public Builder etcd(EtcdConfig v) {
            etcd = v;
            return this;
        }

        public Builder authentication(AuthenticationConfig v) {
            authentication = v;
            return this;
        }

        public Builder authorization(AuthorizationConfig v) {
            authorization = v;
            return this;
        }

        public Builder aggregator(AggregatorConfig v) {
            aggregator = v;
            return this;
        }

        public Builder features(Features v) {
            features = v;
            return this;
        }

        public Builder flowControl(FlowControls.Settings v) {
            flowControl = v;
            return this;
        }

        public Builder warmOpenApi(boolean v) {
            warmOpenApi = v;
            return this;
        }

        /** {@code --disabled-metrics}, {@code --show-hidden-metrics-for-version}, {@code --allow-metric-labels}. */
        public Builder metrics(io.kapi.metrics.MetricsOptions v) {
            metrics = v;
            return this;
        }

        /** {@code --controllers}: which in-process controllers run when {@link #standalone}. */
        public Builder controllers(io.kapi.controllers.ControllerSelection v) {
            controllers = v;
            return this;
        }

        public Builder encryption(io.kapi.encryption.EncryptionOptions v) {
            encryption = v;
            return this;
        }

        /** {@code --storage-media-type}; JSON unless told (kube-apiserver's default is protobuf: see the README). */
        public Builder storageMediaType(String v) {
            storageMediaType = v;
            return this;
        }

        /** {@code --simulated-nodes} and {@code --simulated-nodes-config}, read. */
        public Builder simulation(io.kapi.simulation.SimulationConfig v) {
            simulation = v;
            return this;
        }

        /** {@code --scheduler}: true or false; null for the default ({@link ApiConfig#schedulerOn}). */
        public Builder scheduler(Boolean v) {
            scheduler = v;
            return this;
        }

        public ApiConfig build() {
            return new ApiConfig(dataDir, storageBackend, etcdServers, serviceClusterIpRange, serviceNodePortRange,
                    advertiseAddress, securePort, standalone, eventTtl, serviceAccountIssuer, authorizationModes, admission,
                    etcd, authentication, authorization, features, aggregator, warmOpenApi, metrics, flowControl,
                    controllers, encryption, storageMediaType, simulation, scheduler);
        }
    }
}

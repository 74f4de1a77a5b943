package io.kapi.cli;

import io.kapi.machinery.net.Cidr;
import io.kapi.machinery.net.IpFamily;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The server's command-line options after parsing, with kube-apiserver's defaults. Immutable; build
 * one with {@link #builder()} or take {@link #DEFAULT}. Paths are as given (relative to the working
 * directory). {@link #validate()} lists what is wrong, as kube-apiserver's {@code Validate} does.
 *
 * @param storageBackend {@code embedded}, {@code memory} or {@code etcd3}; null means
 *                       "etcd3 with --etcd-servers, else embedded" (see {@link #effectiveStorageBackend()})
 * @param standalone whether to run the in-process controllers (namespace deletion, garbage collection)
 * @param eventTtl how long events are kept after their last write
 * @param etcd the other {@code --etcd-*} flags
 * @param authentication the authentication flags ({@code tokenAuthFile}, {@code clientCaFile} and
 *                       {@code serviceAccountIssuers} are also here as given)
 * @param authorization the authorization modes' files
 * @param audit the {@code --audit-*} flags as given
 * @param admissionControlConfigFile the AdmissionConfiguration file, or null
 * @param featureGates the {@code --feature-gates} values as given (checked by {@link #validate()})
 * @param runtimeConfig the {@code --runtime-config} values as given (checked by {@link #validate()})
 * @param aggregator {@code --proxy-client-cert-file}, {@code --proxy-client-key-file} and
 *                   {@code --enable-aggregator-routing}
 * @param metrics {@code --disabled-metrics}, {@code --show-hidden-metrics-for-version}, {@code --allow-metric-labels}
 *                and its manifest
 * @param logging {@code --logging-format}, {@code --vmodule}, {@code --log-flush-frequency}
 * @param tracingConfigFile {@code --tracing-config-file}, or null for no tracing
 * @param controllers {@code --controllers} as given (kube-controller-manager's selectors), or null for Kapi's
 *                    default set ({@link io.kapi.controllers.ControllerSelection#DEFAULT})
 * @param encryption {@code --encryption-provider-config} and its automatic reload
 * @param storageMediaType {@code --storage-media-type}: how built-in kinds are encoded at rest
 * @param simulation {@code --simulated-nodes} and {@code --simulated-nodes-config}
 * @param scheduler {@code --scheduler} as given, or null for the default (on with simulated nodes)
 */
public record Options(int securePort, String bindAddress, String advertiseAddress,
                      Path tlsCertFile, Path tlsPrivateKeyFile, Path clientCaFile,
                      List<String> etcdServers, String storageBackend, Path dataDir,
                      String serviceClusterIpRange, String serviceNodePortRange,
                      Path tokenAuthFile, List<String> authorizationModes, List<String> enableAdmissionPlugins,
                      List<String> disableAdmissionPlugins, List<String> serviceAccountIssuers, io.kapi.audit.AuditOptions audit,
                      int maxRequestsInflight, int minRequestTimeoutSeconds, Duration requestTimeout,
                      Duration shutdownDelayDuration, int verbosity, boolean standalone, Duration eventTtl,
                      EtcdOptions etcd, io.kapi.authn.AuthenticationConfig authentication,
                      io.kapi.authz.AuthorizationConfig authorization, Path admissionControlConfigFile,
                      List<String> featureGates, List<String> runtimeConfig,
                      io.kapi.aggregator.AggregatorConfig aggregator, io.kapi.metrics.MetricsOptions metrics,
                      boolean enablePriorityAndFairness, int maxMutatingRequestsInflight, LogOptions logging,
                      Path tracingConfigFile, List<String> controllers,
                      io.kapi.encryption.EncryptionOptions encryption, String storageMediaType,
                      io.kapi.simulation.SimulationFlags simulation, Boolean scheduler) {

    static final Set<String> STORAGE_BACKENDS = Set.of("embedded", "memory", "etcd3");
    static final Set<String> AUTHORIZATION_MODES = Set.of("AlwaysAllow", "AlwaysDeny", "ABAC", "Webhook", "RBAC", "Node");

    public static final Options DEFAULT = builder().build();

    public Options {
        etcdServers = List.copyOf(etcdServers);
        authorizationModes = List.copyOf(authorizationModes);
        enableAdmissionPlugins = List.copyOf(enableAdmissionPlugins);
        disableAdmissionPlugins = List.copyOf(disableAdmissionPlugins);
        serviceAccountIssuers = List.copyOf(serviceAccountIssuers);
        featureGates = List.copyOf(featureGates);
        runtimeConfig = List.copyOf(runtimeConfig);
        controllers = controllers == null ? null : List.copyOf(controllers);
    }

    /**
     * The in-process controllers that run: none without {@code --standalone}, else those {@code --controllers}
     * selects, else kube-controller-manager's defaults ({@code *}) when simulated nodes make a whole cluster (their
     * Pods need Deployments' ReplicaSets, Services' Endpoints), else Kapi's default set.
     */
    public io.kapi.controllers.ControllerSelection controllerSelection() {
        if (!standalone) {
            return io.kapi.controllers.ControllerSelection.NONE;
        }
        if (controllers != null) {
            return io.kapi.controllers.ControllerSelection.parse(controllers);
        }
        return simulation.configured() ? io.kapi.controllers.ControllerSelection.ALL
                : io.kapi.controllers.ControllerSelection.DEFAULT;
    }

    /**
     * The feature gates of {@code --feature-gates}.
     *
     * @throws IllegalArgumentException as {@link #validate()} reports it
     */
    public io.kapi.machinery.features.FeatureGates gates() {
        return io.kapi.machinery.features.FeatureGates.parse(featureGates);
    }

    /**
     * The API versions {@code --runtime-config} enables, checked against the versions kube-apiserver 1.34 has.
     *
     * @throws IllegalArgumentException as {@link #validate()} reports it
     */
    public io.kapi.machinery.resource.ApiEnablement apis() {
        io.kapi.machinery.resource.ApiEnablement apis = io.kapi.machinery.resource.ApiEnablement.parse(runtimeConfig);
        io.kapi.machinery.resource.ResourceTable.builtin(apis);
        return apis;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The backend in use: the one asked for, else etcd3 when etcd servers are given, else embedded. */
    public String effectiveStorageBackend() {
        if (storageBackend != null) {
            return storageBackend;
        }
        return etcdServers.isEmpty() ? "embedded" : "etcd3";
    }

    /** True when no serving certificate is given, so Kapi makes its own in the data directory. */
    public boolean selfSignedCertificates() {
        return tlsCertFile == null;
    }

    /** Every problem with these options, worded for the command line; empty when valid. */
    public List<String> validate() {
        List<String> errors = new ArrayList<>();
        if (securePort < 1 || securePort > 65535) {
            errors.add("--secure-port %d must be between 1 and 65535, inclusive. It cannot be turned off with 0"
                    .formatted(securePort));
        }
        if ((tlsCertFile == null) != (tlsPrivateKeyFile == null)) {
            errors.add("--tls-cert-file and --tls-private-key-file must be given together");
        }
        for (Path file : new Path[] {tlsCertFile, tlsPrivateKeyFile, clientCaFile, tokenAuthFile}) {
            if (file != null && !Files.isReadable(file)) {
                errors.add("cannot read file " + file);
            }
        }
        if (clientCaFile != null && tlsCertFile == null) {
            errors.add("--client-ca-file needs --tls-cert-file and --tls-private-key-file; without them Kapi "
                    + "makes its own CA in --data-dir");
        }
        String backend = effectiveStorageBackend();
        if (!STORAGE_BACKENDS.contains(backend)) {
            errors.add("--storage-backend %s is invalid; must be one of embedded, memory, etcd3".formatted(backend));
        } else if (backend.equals("etcd3") && etcdServers.isEmpty()) {
            errors.add("--etcd-servers must be specified with --storage-backend=etcd3");
        } else if (!backend.equals("etcd3") && !etcdServers.isEmpty()) {
            errors.add("--etcd-servers is only used with --storage-backend=etcd3, not " + backend);
        }
        for (String server : etcdServers) {
            if (!server.matches("(?i)https?://[^/]+/?")) {
                errors.add("--etcd-servers: %s is not a URL like http://127.0.0.1:2379".formatted(server));
            }
        }
        String[] serviceRanges = serviceClusterIpRange.split(",");
        if (serviceRanges.length > 2) {
            errors.add("--service-cluster-ip-range may hold at most two CIDRs (IPv4,IPv6 for dual-stack)");
        }
        java.util.Set<IpFamily> families = java.util.EnumSet.noneOf(IpFamily.class);
        for (String text : serviceRanges) {
            try {
                Cidr range = Cidr.parseSloppy(text.trim());
                if (range.hostBits() < 2 || (range.family() == IpFamily.IPV4 && range.prefix() < 8)) {
                    errors.add("--service-cluster-ip-range %s must leave room for services and be at most a /8"
                            .formatted(text.trim()));
                }
                if (!families.add(range.family())) {
                    errors.add("--service-cluster-ip-range: dual-stack needs one IPv4 and one IPv6 CIDR, not "
                            + serviceClusterIpRange);
                }
            } catch (IllegalArgumentException e) {
                errors.add("--service-cluster-ip-range: " + e.getMessage());
            }
        }
        if (!validPortRange(serviceNodePortRange)) {
            errors.add("--service-node-port-range %s must be like 30000-32767".formatted(serviceNodePortRange));
        }
        for (String mode : authorizationModes) {
            if (!AUTHORIZATION_MODES.contains(mode)) {
                errors.add("--authorization-mode %s is not one of AlwaysAllow,AlwaysDeny,ABAC,Webhook,RBAC,Node"
                        .formatted(mode));
            }
        }
        errors.addAll(io.kapi.assembly.AdmissionPlugins.problems(enableAdmissionPlugins, disableAdmissionPlugins));
        if (maxRequestsInflight < 0) {
            errors.add("--max-requests-inflight can not be negative value");
        }
        if (maxMutatingRequestsInflight < 0) {
            errors.add("--max-mutating-requests-inflight can not be negative value");
        }
        if (minRequestTimeoutSeconds < 0) {
            errors.add("--min-request-timeout can not be negative value");
        }
        if (requestTimeout.isNegative()) {
            errors.add("--request-timeout can not be negative value");
        }
        if (shutdownDelayDuration.isNegative()) {
            errors.add("--shutdown-delay-duration can not be negative value");
        }
        if (eventTtl.isNegative() || eventTtl.isZero()) {
            errors.add("--event-ttl must be greater than 0");
        }
        if (controllers != null) {
            List<String> problems = io.kapi.controllers.ControllerSelection.parse(controllers).problems();
            if (!problems.isEmpty()) {
                errors.add("validation failed for '--controllers': [" + String.join(", ", problems) + "]");
            }
            if (!standalone) {
                errors.add("--controllers selects in-process controllers, which --standalone=false turns off");
            }
        }
        errors.addAll(simulation.problems());
        if (verbosity < 0) {
            errors.add("-v must not be negative");
        }
        errors.addAll(logging.validate());
        if (tracingConfigFile != null) {
            try {
                io.kapi.tracing.TracingConfiguration.read(tracingConfigFile);
            } catch (IllegalArgumentException e) {
                errors.add(e.getMessage());
            }
        }
        try {
            encryption.validate();
        } catch (IllegalArgumentException e) {
            errors.add(e.getMessage());
        }
        try {
            gates();
        } catch (IllegalArgumentException e) {
            errors.add("--feature-gates: " + e.getMessage());
        }
        try {
            apis();
        } catch (IllegalArgumentException e) {
            errors.add("--runtime-config: " + e.getMessage());
        }
        if (!io.kapi.registry.AtRest.MEDIA_TYPES.contains(storageMediaType)) {
            errors.add("--storage-media-type \"" + storageMediaType + "\" invalid, allowed values: "
                    + String.join(", ", io.kapi.registry.AtRest.MEDIA_TYPES));
        }
        errors.addAll(etcd.validate());
        errors.addAll(audit.validate());
        errors.addAll(AuthValidation.problems(this));
        return errors;
    }

    private static boolean validPortRange(String range) {
        String[] parts = range.split("-", -1);
        try {
            if (parts.length != 2) {
                return false;
            }
            int low = Integer.parseInt(parts[0].trim());
            int high = Integer.parseInt(parts[1].trim());
            return low >= 1 && low <= high && high <= 65535;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Collects options; starts from the defaults. Not thread-safe. */
    public static final class Builder {
        int securePort = 6443;
        String bindAddress = "0.0.0.0";
        String advertiseAddress;
        Path tlsCertFile;
        Path tlsPrivateKeyFile;
        Path clientCaFile;
        List<String> etcdServers = List.of();
        String storageBackend;
        Path dataDir = Path.of("kapi-data");
        String serviceClusterIpRange = "10.96.0.0/12";
        String serviceNodePortRange = "30000-32767";
        List<String> authorizationModes; // null: the default, replaced (not appended to) by the flag
        List<String> enableAdmissionPlugins = List.of();
        List<String> disableAdmissionPlugins = List.of();
        List<String> serviceAccountIssuers = List.of();
        io.kapi.audit.AuditOptions audit = io.kapi.audit.AuditOptions.DEFAULT;
        int maxRequestsInflight = 400;
        int minRequestTimeoutSeconds = 1800;
        Duration requestTimeout = Duration.ofMinutes(1);
        Duration shutdownDelayDuration = Duration.ZERO;
        int verbosity;
        boolean standalone = true;
        Duration eventTtl = Duration.ofHours(1);
        EtcdOptions etcd = EtcdOptions.DEFAULT;
        io.kapi.authn.AuthenticationConfig authentication = io.kapi.authn.AuthenticationConfig.DEFAULT;
        io.kapi.authz.AuthorizationConfig authorization = io.kapi.authz.AuthorizationConfig.DEFAULT;
        Path admissionControlConfigFile;
        List<String> featureGates = List.of();
        List<String> runtimeConfig = List.of();
        io.kapi.aggregator.AggregatorConfig aggregator = io.kapi.aggregator.AggregatorConfig.DEFAULT;
        List<String> disabledMetrics = List.of();
        String showHiddenMetricsForVersion;
        final java.util.Map<String, java.util.Set<String>> allowMetricLabels = new java.util.LinkedHashMap<>();
        java.util.Map<String, java.util.Set<String>> allowMetricLabelsManifest = java.util.Map.of();
        boolean enablePriorityAndFairness = true;
        int maxMutatingRequestsInflight = 200;
        LogOptions logging = LogOptions.DEFAULT;
        Path tracingConfigFile;
        List<String> controllers; // null: Kapi's default set
        io.kapi.encryption.EncryptionOptions encryption = io.kapi.encryption.EncryptionOptions.NONE;
        String storageMediaType = io.kapi.registry.AtRest.PROTOBUF; // kube-apiserver's default
        io.kapi.simulation.SimulationFlags simulation = io.kapi.simulation.SimulationFlags.NONE;
        Boolean scheduler; // null: on when simulated nodes are configured
        /** Flags given that Kapi accepts but does not act on, in order, once each. */
        final java.util.Set<String> ignored = new java.util.LinkedHashSet<>();

        private Builder() {
        }

        public Builder securePort(int port) {
            this.securePort = port;
            return this;
        }

        public Builder dataDir(Path dir) {
            this.dataDir = dir;
            return this;
        }

        public Builder storageBackend(String backend) {
            this.storageBackend = backend;
            return this;
        }

        public Options build() {
            return new Options(securePort, bindAddress, advertiseAddress, tlsCertFile, tlsPrivateKeyFile,
                    clientCaFile, etcdServers, storageBackend, dataDir, serviceClusterIpRange, serviceNodePortRange,
                    authentication.tokenAuthFile(), authorizationModes == null ? List.of("AlwaysAllow") : authorizationModes,
                    enableAdmissionPlugins, disableAdmissionPlugins, serviceAccountIssuers,
                    audit, maxRequestsInflight, minRequestTimeoutSeconds, requestTimeout,
                    shutdownDelayDuration, verbosity, standalone, eventTtl, etcd,
                    authentication, authorization, admissionControlConfigFile, featureGates, runtimeConfig, aggregator,
                    metrics(), enablePriorityAndFairness, maxMutatingRequestsInflight, logging, tracingConfigFile,
                    controllers, encryption, storageMediaType, simulation, scheduler);
        }

        /** The metrics flags; {@code --allow-metric-labels} entries win over the manifest's. */
        private io.kapi.metrics.MetricsOptions metrics() {
            java.util.Map<String, java.util.Set<String>> allowed = new java.util.LinkedHashMap<>(allowMetricLabelsManifest);
            allowed.putAll(allowMetricLabels);
            return new io.kapi.metrics.MetricsOptions(java.util.Set.copyOf(disabledMetrics), showHiddenMetricsForVersion,
                    allowed);
        }
    }
}

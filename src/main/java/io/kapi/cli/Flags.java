package io.kapi.cli;

import io.kapi.machinery.GoBool;
import io.kapi.machinery.GoDuration;
import io.kapi.machinery.GoStrings;
import io.kapi.machinery.net.IpAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The flags Kapi accepts: every flag of kube-apiserver 1.34 (its names, types and sections), the ones
 * Kapi acts on defined here, the rest accepted and ignored ({@link KubeFlags}); and Kapi's own few.
 */
final class Flags {

    static final String GENERIC = "Generic";
    static final String ETCD = "Etcd";
    static final String SECURE_SERVING = "Secure serving";
    static final String AUDITING = "Auditing";
    static final String AUTHENTICATION = "Authentication";
    static final String AUTHORIZATION = "Authorization";
    static final String ADMISSION = "Admission";
    static final String MISC = "Misc";
    static final String METRICS = "Metrics";
    static final String KAPI = "Kapi";
    static final String GLOBAL = "Global";

    /** Sections in the order help prints them (kube-apiserver's, then Kapi's own). */
    static final List<String> SECTIONS = List.of(GENERIC, ETCD, SECURE_SERVING, AUDITING, "Features",
            AUTHENTICATION, AUTHORIZATION, "API enablement", "Egress selector", ADMISSION, METRICS, "Logs",
            "Traces", MISC, KAPI, GLOBAL);

    /** The flags Kapi acts on (a few of them still only accepted: {@link Flag#implemented()} false). */
    private static final List<Flag> OWN = List.of(
            new Flag("advertise-address", null, GENERIC, "ip", null,
                    "The IP address on which to advertise the apiserver to members of the cluster. This address "
                            + "must be reachable by the rest of the cluster. If blank, the --bind-address will be "
                            + "used. If --bind-address is unspecified, the host's default interface will be used. "
                            + "It is added to the self-made serving certificate.",
                    true, false, (b, v) -> b.advertiseAddress = ip(v)),
            new Flag("event-ttl", null, MISC, "duration", "1h0m0s",
                    "Amount of time to retain events.",
                    true, false, (b, v) -> b.eventTtl = GoDuration.parse(v)),
            new Flag("max-requests-inflight", null, GENERIC, "int", "400",
                    "This and --max-mutating-requests-inflight are summed to determine the server's total "
                            + "concurrency limit (which must be positive) if --enable-priority-and-fairness is true. "
                            + "Otherwise, this flag limits the maximum number of non-mutating requests in flight, "
                            + "or a zero value disables the limit completely.",
                    true, false, (b, v) -> b.maxRequestsInflight = integer(v)),
            new Flag("max-mutating-requests-inflight", null, GENERIC, "int", "200",
                    "This and --max-requests-inflight are summed to determine the server's total concurrency "
                            + "limit (which must be positive) if --enable-priority-and-fairness is true. Otherwise, "
                            + "this flag limits the maximum number of mutating requests in flight, or a zero value "
                            + "disables the limit completely.",
                    true, false, (b, v) -> b.maxMutatingRequestsInflight = integer(v)),
            new Flag("enable-priority-and-fairness", null, GENERIC, "bool", "true",
                    "If true, replace the max-in-flight handler with an enhanced one that queues and dispatches "
                            + "with priority and fairness",
                    true, false, (b, v) -> b.enablePriorityAndFairness = bool(v)),
            new Flag("min-request-timeout", null, GENERIC, "int", "1800",
                    "An optional field indicating the minimum number of seconds a handler must keep a request "
                            + "open before timing it out. Currently only honored by the watch request handler.",
                    false, false, (b, v) -> b.minRequestTimeoutSeconds = integer(v)),
            new Flag("request-timeout", null, GENERIC, "duration", "1m0s",
                    "An optional field indicating the duration a handler must keep a request open before timing "
                            + "it out. This is the default request timeout for requests but may be overridden by "
                            + "flags such as --min-request-timeout for specific types of requests.",
                    true, false, (b, v) -> b.requestTimeout = GoDuration.parse(v)),
            new Flag("shutdown-delay-duration", null, GENERIC, "duration", "0s",
                    "Time to delay the termination. During that time the server keeps serving requests "
                            + "normally. The endpoints /healthz and /livez will return success, but /readyz "
                            + "immediately returns failure.",
                    true, false, (b, v) -> b.shutdownDelayDuration = GoDuration.parse(v)),
            new Flag("encryption-provider-config", null, ETCD, "string", null,
                    "The file containing configuration for encryption providers to be used for storing secrets in etcd",
                    true, false, (b, v) -> b.encryption = new io.kapi.encryption.EncryptionOptions(Path.of(v),
                            b.encryption.automaticReload())),
            new Flag("encryption-provider-config-automatic-reload", null, ETCD, "bool", null,
                    "Determines if the file set by --encryption-provider-config should be automatically reloaded if "
                            + "the disk contents change. Setting this to true disables the ability to uniquely identify "
                            + "distinct KMS plugins via the API server healthz endpoints.",
                    true, false, (b, v) -> b.encryption = new io.kapi.encryption.EncryptionOptions(
                            b.encryption.configFile(), bool(v))),
            new Flag("etcd-servers", null, ETCD, "strings", null,
                    "List of etcd servers to connect with (scheme://ip:port), comma separated. Implies "
                            + "--storage-backend=etcd3.",
                    true, true, (b, v) -> b.etcdServers = append(b.etcdServers, v)),
            new Flag("etcd-prefix", null, ETCD, "string", "/registry",
                    "The prefix to prepend to all resource paths in etcd.",
                    true, false, (b, v) -> b.etcd = b.etcd.withPrefix(v)),
            new Flag("etcd-cafile", null, ETCD, "string", null, "SSL Certificate Authority file used to secure etcd communication.",
                    true, false, (b, v) -> b.etcd = b.etcd.withCaFile(Path.of(v))),
            new Flag("etcd-certfile", null, ETCD, "string", null, "SSL certification file used to secure etcd communication.",
                    true, false, (b, v) -> b.etcd = b.etcd.withCertFile(Path.of(v))),
            new Flag("etcd-keyfile", null, ETCD, "string", null, "SSL key file used to secure etcd communication.",
                    true, false, (b, v) -> b.etcd = b.etcd.withKeyFile(Path.of(v))),
            new Flag("etcd-compaction-interval", null, ETCD, "duration", "5m0s",
                    "The interval of compaction requests. If 0, the compaction request from apiserver is disabled.",
                    true, false, (b, v) -> b.etcd = b.etcd.withCompactionInterval(GoDuration.parse(v))),
            new Flag("etcd-healthcheck-timeout", null, ETCD, "duration", "2s",
                    "The timeout to use when checking etcd health.",
                    true, false, (b, v) -> b.etcd = b.etcd.withHealthcheckTimeout(GoDuration.parse(v))),
            new Flag("storage-media-type", null, ETCD, "string", "\"application/vnd.kubernetes.protobuf\"",
                    "The media type to use to store objects in storage. Some resources or storage backends may only "
                            + "support a specific media type and will ignore this setting. Supported media types: "
                            + "[application/json, application/yaml, application/vnd.kubernetes.protobuf]",
                    true, false, (b, v) -> b.storageMediaType = v),
            new Flag("storage-backend", null, ETCD, "string", null,
                    "The storage backend for persistence. Options: 'embedded' (durable, in --data-dir; the "
                            + "default), 'memory' (lost on exit), 'etcd3' (the default when --etcd-servers is set).",
                    true, false, (b, v) -> b.storageBackend = v),
            new Flag("bind-address", null, SECURE_SERVING, "ip", "0.0.0.0",
                    "The IP address on which to listen for the --secure-port port. If blank or an unspecified "
                            + "address (0.0.0.0 or ::), all interfaces will be used.",
                    true, false, (b, v) -> b.bindAddress = v.isEmpty() ? "0.0.0.0" : ip(v)),
            new Flag("secure-port", null, SECURE_SERVING, "int", "6443",
                    "The port on which to serve HTTPS with authentication and authorization. It cannot be "
                            + "switched off with 0.",
                    true, false, (b, v) -> b.securePort = integer(v)),
            new Flag("tls-cert-file", null, SECURE_SERVING, "string", null,
                    "File containing the default x509 Certificate for HTTPS. (CA cert, if any, concatenated "
                            + "after server cert). If HTTPS serving is enabled, and --tls-cert-file and "
                            + "--tls-private-key-file are not provided, a self-signed CA and serving certificate "
                            + "are generated in --data-dir, with an admin kubeconfig.",
                    true, false, (b, v) -> b.tlsCertFile = Path.of(v)),
            new Flag("tls-private-key-file", null, SECURE_SERVING, "string", null,
                    "File containing the default x509 private key matching --tls-cert-file.",
                    true, false, (b, v) -> b.tlsPrivateKeyFile = Path.of(v)),
            new Flag("disabled-metrics", null, METRICS, "strings", null,
                    "This flag provides an escape hatch for misbehaving metrics. You must provide the fully qualified "
                            + "metric name in order to disable it. Disclaimer: disabling metrics is higher in precedence "
                            + "than showing hidden metrics.",
                    true, true, (b, v) -> b.disabledMetrics = append(b.disabledMetrics, v)),
            new Flag("show-hidden-metrics-for-version", null, METRICS, "string", null,
                    "The previous version for which you want to show hidden metrics. Only the previous minor version "
                            + "is meaningful, other values will not be allowed. The format is <major>.<minor>, e.g.: "
                            + "'1.16'. The purpose of this format is make sure you have the opportunity to notice if "
                            + "the next release hides additional metrics, rather than being surprised when they are "
                            + "permanently removed in the release after that.",
                    true, false, (b, v) -> b.showHiddenMetricsForVersion = new io.kapi.metrics.MetricsOptions(
                            java.util.Set.of(), v, java.util.Map.of()).showHiddenForVersion()),
            new Flag("allow-metric-labels", null, METRICS, "stringToString", "[]",
                    "The map from metric-label to value allow-list of this label. The key's format is "
                            + "<MetricName>,<LabelName>. The value's format is <allowed_value>,<allowed_value>...e.g. "
                            + "metric1,label1='v1,v2,v3', metric1,label2='v1,v2,v3' metric2,label1='v1,v2,v3'.",
                    true, true, (b, v) -> b.allowMetricLabels.putAll(
                            io.kapi.metrics.MetricsOptions.parseAllowList(List.of(v)))),
            new Flag("allow-metric-labels-manifest", null, METRICS, "string", null,
                    "The path to the manifest file that contains the allow-list mapping. The format of the file is "
                            + "the same as the flag --allow-metric-labels. Note that the flag --allow-metric-labels "
                            + "will override the manifest file.",
                    true, false, (b, v) -> b.allowMetricLabelsManifest = MetricLabelsManifest.read(Path.of(v))),
            new Flag("client-ca-file", null, AUTHENTICATION, "string", null,
                    "If set, any request presenting a client certificate signed by one of the authorities in "
                            + "the client-ca-file is authenticated with an identity corresponding to the "
                            + "CommonName of the client certificate.",
                    true, false, (b, v) -> b.clientCaFile = Path.of(v)),
            new Flag("service-account-issuer", null, AUTHENTICATION, "stringArray", null,
                    "Identifier of the service account token issuer. The issuer will assert this identifier in "
                            + "\"iss\" claim of issued tokens.",
                    true, true, (b, v) -> b.serviceAccountIssuers = append(b.serviceAccountIssuers, v)),
            new Flag("token-auth-file", null, AUTHENTICATION, "string", null,
                    "If set, the file that will be used to secure the secure port of the API server via token "
                            + "authentication.",
                    true, false, (b, v) -> b.authentication = b.authentication.withTokenAuthFile(Path.of(v))),
            new Flag("authorization-mode", null, AUTHORIZATION, "strings", "[AlwaysAllow]",
                    "Ordered list of plug-ins to do authorization on secure port. Defaults to AlwaysAllow if "
                            + "--authorization-config is not used. Comma-delimited list of: "
                            + "AlwaysAllow,AlwaysDeny,ABAC,Webhook,RBAC,Node.",
                    true, true, (b, v) -> b.authorizationModes = append(
                            b.authorizationModes == null ? List.of() : b.authorizationModes, v)),
            new Flag("enable-admission-plugins", null, ADMISSION, "strings", null,
                    "admission plugins that should be enabled in addition to default enabled ones (NamespaceLifecycle, "
                            + "LimitRanger, ServiceAccount, TaintNodesByCondition, PodSecurity, Priority, "
                            + "DefaultTolerationSeconds, DefaultStorageClass, StorageObjectInUseProtection, "
                            + "PersistentVolumeClaimResize, RuntimeClass, CertificateApproval, CertificateSigning, "
                            + "ClusterTrustBundleAttest, CertificateSubjectRestriction, DefaultIngressClass, "
                            + "PodTopologyLabels, MutatingAdmissionPolicy, MutatingAdmissionWebhook, "
                            + "ValidatingAdmissionPolicy, ValidatingAdmissionWebhook, ResourceQuota). "
                            + "Comma-delimited list of admission plugins. The order of plugins in this flag does not matter.",
                    true, true, (b, v) -> b.enableAdmissionPlugins = append(b.enableAdmissionPlugins, v)),
            new Flag("disable-admission-plugins", null, ADMISSION, "strings", null,
                    "admission plugins that should be disabled although they are in the default enabled plugins "
                            + "list. Comma-delimited list of admission plugins.",
                    true, true, (b, v) -> b.disableAdmissionPlugins = append(b.disableAdmissionPlugins, v)),
            new Flag("admission-control-config-file", null, ADMISSION, "string", null,
                    "File with admission control configuration.",
                    true, false, (b, v) -> b.admissionControlConfigFile = Path.of(v)),
            new Flag("feature-gates", null, GENERIC, "colonSeparatedMultimapStringString", null,
                    "Comma-separated list of component:key=value pairs that describe feature gates for "
                            + "alpha/experimental features of different components. If the component is not "
                            + "specified, defaults to \"kube\". This flag can be repeatedly invoked. Kapi acts on "
                            + "MutatingAdmissionPolicy (with --runtime-config=admissionregistration.k8s.io/v1beta1=true); "
                            + "the other gates of kube-apiserver 1.34 are checked and accepted.",
                    true, true, (b, v) -> b.featureGates = appendRaw(b.featureGates, v)),
            new Flag("runtime-config", null, "API enablement", "<comma-separated 'key=value' pairs>", null,
                    "A set of key=value pairs that enable or disable built-in APIs. Supported options are: "
                            + "v1=true|false for the core API group <group>/<version>=true|false for a specific API "
                            + "group and version (e.g. apps/v1=true) api/all=true|false controls all API versions "
                            + "api/ga=true|false controls all API versions of the form v[0-9]+ api/beta=true|false "
                            + "controls all API versions of the form v[0-9]+beta[0-9]+ api/alpha=true|false controls "
                            + "all API versions of the form v[0-9]+alpha[0-9]+. Kapi serves admissionregistration.k8s.io/"
                            + "v1beta1 and v1alpha1 when enabled; it cannot switch off versions served by default.",
                    true, true, (b, v) -> b.runtimeConfig = appendRaw(b.runtimeConfig, v)),
            new Flag("enable-aggregator-routing", null, MISC, "bool", null,
                    "Turns on aggregator routing requests to endpoints IP rather than cluster IP.",
                    true, false, (b, v) -> b.aggregator = b.aggregator.withEndpointRouting(bool(v))),
            new Flag("proxy-client-cert-file", null, MISC, "string", null,
                    "Client certificate used to prove the identity of the aggregator or kube-apiserver when it must "
                            + "call out during a request. This includes proxying requests to a user api-server and "
                            + "calling out to webhook admission plugins. It is expected that this cert includes a "
                            + "signature from the CA in the --requestheader-client-ca-file flag. That CA is published "
                            + "in the 'extension-apiserver-authentication' configmap in the kube-system namespace. "
                            + "Components receiving calls from kube-aggregator should use that CA to perform their "
                            + "half of the mutual TLS verification.",
                    true, false, (b, v) -> b.aggregator = b.aggregator.withProxyClientCertFile(Path.of(v))),
            new Flag("proxy-client-key-file", null, MISC, "string", null,
                    "Private key for the client certificate used to prove the identity of the aggregator or "
                            + "kube-apiserver when it must call out during a request. This includes proxying requests "
                            + "to a user api-server and calling out to webhook admission plugins.",
                    true, false, (b, v) -> b.aggregator = b.aggregator.withProxyClientKeyFile(Path.of(v))),
            new Flag("service-cluster-ip-range", null, MISC, "string", "10.96.0.0/12",
                    "A CIDR notation IP range from which to assign service cluster IPs (or an IPv4,IPv6 pair for "
                            + "dual-stack). This must not overlap "
                            + "with any IP ranges assigned to nodes or pods. Its first address is the "
                            + "'kubernetes' service IP and is in the serving certificate.",
                    true, false, (b, v) -> b.serviceClusterIpRange = v),
            new Flag("service-node-port-range", null, MISC, "portRange", "30000-32767",
                    "A port range to reserve for services with NodePort visibility. Example: '30000-32767'. "
                            + "Inclusive at both ends of the range.",
                    true, false, (b, v) -> b.serviceNodePortRange = v),
            new Flag("data-dir", null, KAPI, "string", "kapi-data",
                    "Directory for the embedded store and the self-made certificates and admin.kubeconfig.",
                    true, false, (b, v) -> b.dataDir = Path.of(v)),
            new Flag("standalone", null, KAPI, "bool", "true",
                    "Run the in-process controllers a cluster without kube-controller-manager needs (namespace "
                            + "deletion, default service accounts, garbage collection). Turn off when a kube-controller-manager runs against this server.",
                    true, false, (b, v) -> b.standalone = bool(v)),
            new Flag("controllers", null, KAPI, "strings", null,
                    "A list of controllers to enable, as kube-controller-manager's flag. '*' enables all on-by-default "
                            + "controllers, 'foo' enables the controller named 'foo', '-foo' disables the controller "
                            + "named 'foo'. Names are kube-controller-manager's (e.g. deployment-controller, or the "
                            + "alias deployment). Without this flag Kapi runs namespace-controller, "
                            + "serviceaccount-controller, garbage-collector-controller, "
                            + "serviceaccount-token-controller, root-ca-certificate-publisher-controller, "
                            + "persistentvolumeclaim-protection-controller, persistentvolume-protection-controller, "
                            + "resourcequota-controller, validatingadmissionpolicy-status-controller and "
                            + "clusterrole-aggregation-controller; '*' adds the workload controllers Kapi has "
                            + "(deployment-controller, replicaset-controller, replicationcontroller-controller, "
                            + "endpoints-controller, endpointslice-controller, endpointslice-mirroring-controller, "
                            + "disruption-controller, pod-garbage-collector-controller, "
                            + "horizontal-pod-autoscaler-controller). Kapi's controllers take no part in "
                            + "leader election: turn off those a kube-controller-manager beside Kapi runs.",
                    true, true, (b, v) -> b.controllers = append(b.controllers == null ? List.of() : b.controllers, v)),
            new Flag("simulated-nodes", null, KAPI, "int", "0",
                    "Register this many simulated nodes (kapi-node-0, kapi-node-1, ...), kept Ready with Leases and "
                            + "status updates as kubelets would; their simulated kubelets run the Pods bound to them "
                            + "(phases, container statuses, Pod IPs, graceful deletion) without containers.",
                    true, false, (b, v) -> b.simulation = b.simulation.withNodes(integer(v))),
            new Flag("simulated-nodes-config", null, KAPI, "string", null,
                    "A YAML file of simulated nodes' names and shapes (cpu, memory, pods, zones, labels, taints) and "
                            + "of their kubelets' timings; see the README.",
                    true, false, (b, v) -> b.simulation = b.simulation.withConfigFile(Path.of(v))),
            new Flag("scheduler", null, KAPI, "bool", null,
                    "Run Kapi's scheduler (kube-scheduler's default profile, as system:kube-scheduler) for Pods whose "
                            + "schedulerName is default-scheduler. On by default when simulated nodes are configured, "
                            + "off otherwise. Turn off when a kube-scheduler runs against this server: Kapi's "
                            + "scheduler takes no part in leader election.",
                    true, false, (b, v) -> b.scheduler = bool(v)),
            new Flag("logging-format", null, "Logs", "string", "\"text\"",
                    "Sets the log format. Permitted formats: \"json\", \"text\".",
                    true, false, (b, v) -> b.logging = b.logging.withFormat(io.kapi.logs.LogFormat.parse(v))),
            new Flag("vmodule", null, "Logs", "pattern=N,...", null,
                    "comma-separated list of pattern=N settings for file-filtered logging (only works for text log "
                            + "format). In Kapi a pattern matches a class's simple name (its file), or with a dot the "
                            + "whole class name.",
                    true, false, (b, v) -> b.logging = b.logging.withVModule(io.kapi.logs.VModule.parse(v))),
            new Flag("log-flush-frequency", null, "Logs", "duration", "5s",
                    "Maximum number of seconds between log flushes",
                    true, false, (b, v) -> b.logging = b.logging.withFlushFrequency(GoDuration.parse(v))),
            new Flag("tracing-config-file", null, "Traces", "string", null,
                    "File with apiserver tracing configuration.",
                    true, false, (b, v) -> b.tracingConfigFile = Path.of(v)),
            new Flag("v", "v", GLOBAL, "Level", "0",
                    "number for the log level verbosity",
                    true, false, (b, v) -> b.verbosity = integer(v)),
            new Flag("version", null, GLOBAL, "version[=true]", null,
                    "--version, --version=raw prints version information and quits",
                    true, false, (b, v) -> { }),
            new Flag("help", "h", GLOBAL, "", null, "help for kapi", true, false, (b, v) -> { }));

    /** Every flag: Kapi's own, then those of kube-apiserver Kapi does not define itself. */
    static final List<Flag> ALL = merge(OWN, KubeFlags.load());

    private static List<Flag> merge(List<Flag> own, List<Flag> kube) {
        List<Flag> withAuth = new ArrayList<>(own);
        withAuth.addAll(AuthFlags.all(kube));
        withAuth.addAll(AuditFlags.all(kube));
        return mergeAll(withAuth, kube);
    }

    private static List<Flag> mergeAll(List<Flag> own, List<Flag> kube) {
        List<Flag> all = new ArrayList<>(own);
        for (Flag flag : kube) {
            if (own.stream().noneMatch(f -> f.name().equals(flag.name()))) {
                all.add(flag);
            }
        }
        all.sort(java.util.Comparator.comparing(Flag::name));
        return List.copyOf(all);
    }

    private Flags() {
    }

    private static boolean bool(String value) {
        return GoBool.parse(value).orElseThrow(() -> new IllegalArgumentException(
                "strconv.ParseBool: parsing \"" + value + "\": invalid syntax"));
    }

    static Flag byName(String name) {
        return ALL.stream().filter(f -> f.name().equals(name)).findFirst().orElse(null);
    }

    static Flag byShorthand(String letter) {
        return ALL.stream().filter(f -> letter.equals(f.shorthand())).findFirst().orElse(null);
    }

    private static int integer(String v) {
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("strconv.ParseInt: parsing \"" + v + "\": invalid syntax");
        }
    }

    /** pflag's IP flag: {@code net.ParseIP} of the trimmed text, kept in Go's canonical form. */
    static String ip(String v) {
        IpAddress ip = IpAddress.parseOrNull(v.trim());
        if (ip == null) {
            throw new IllegalArgumentException("failed to parse IP: " + GoStrings.quote(v));
        }
        return ip.toString();
    }

    /** A repeatable flag whose value is parsed later as a whole ({@code key=value} lists). */
    private static List<String> appendRaw(List<String> current, String value) {
        List<String> values = new ArrayList<>(current);
        values.add(value);
        return List.copyOf(values);
    }

    private static List<String> append(List<String> current, String commaSeparated) {
        List<String> values = new ArrayList<>(current);
        Arrays.stream(commaSeparated.split(",")).map(String::trim).filter(s -> !s.isEmpty()).forEach(values::add);
        return List.copyOf(values);
    }
}

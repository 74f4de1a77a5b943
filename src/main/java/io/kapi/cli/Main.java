package io.kapi.cli;

import io.kapi.assembly.ApiAssembly;
import io.kapi.assembly.ApiConfig;
import io.kapi.assembly.StartUpPreload;
import io.kapi.audit.Auditor;
import io.kapi.authn.AuthenticationConfig;
import io.kapi.authz.modes.AuthorizationModes;
import io.kapi.certs.LocalPki;
import io.kapi.certs.Pem;
import io.kapi.certs.ServingNames;
import io.kapi.flowcontrol.FlowControls;
import io.kapi.certs.TlsMaterial;
import io.kapi.machinery.net.Cidr;
import io.kapi.server.Background;
import io.kapi.server.KapiServer;
import io.kapi.server.ServerConfig;
import io.kapi.storage.etcd.EtcdConfig;
import io.kapi.tracing.Tracing;
import io.kapi.tracing.TracingConfiguration;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code kapi}: parses the kube-apiserver style flags, prepares the certificates, builds the API and
 * serves it until SIGTERM or SIGINT. Exit codes: 0 after {@code --help} or a clean shutdown (a first
 * SIGTERM or SIGINT: see {@link Signals}), 1 for a bad command line, a failed start or a second signal.
 * <pre>
 *   flags → Options (defaults, validate)
 *         → DataDirectory (--data-dir private: 0700, files 0600)
 *         → TlsMaterial (given files, or LocalPki in --data-dir)
 *         → ApiAssembly.create(ApiConfig)
 *         → ApiAssembly.serverConfig + listen (the API's authenticator, authorizer, post-start hooks)
 *         → "Kapi is ready: kubectl --kubeconfig …"   → wait for a signal → shutdown
 * </pre>
 */
public final class Main {

    // Not a static field: the logging manager must be chosen before the first logger exists.
    private static System.Logger log() {
        return System.getLogger(Main.class.getName());
    }

    private Main() {
    }

    public static void main(String[] args) {
        Logging.installManager();
        System.exit(run(Arrays.asList(args), System.out, System.err));
    }

    /** Runs the command and returns its exit code; returns only after the server has stopped. */
    static int run(List<String> args, PrintStream out, PrintStream err) {
        StartClock clock = new StartClock(System.getProperty("kapi.launchedAt"));
        clock.mark("jvm");
        StartUpPreload.begin();
        Options options;
        List<String> ignored;
        try {
            switch (FlagParser.parse(args)) {
                case FlagParser.Help() -> {
                    out.print(Usage.text());
                    return 0;
                }
                case FlagParser.Version() -> {
                    out.println("Kubernetes " + KapiServer.gitVersion());
                    return 0;
                }
                case FlagParser.Run(Options o, List<String> given) -> {
                    options = o;
                    ignored = given;
                }
            }
        } catch (FlagParser.FlagException e) {
            err.println("Error: " + e.getMessage());
            err.println("Run 'kapi --help' for usage.");
            return 1;
        }
        Logging.configure(options.verbosity(), options.logging().format(), options.logging().vmodule(),
                options.logging().flushFrequency());
        clock.mark("flags");
        try {
            if (!ignored.isEmpty()) {
                log().log(Level.WARNING, "Flags accepted but not implemented by Kapi, ignored: {0}",
                        String.join(" ", ignored));
            }
            return serve(options, out, clock);
        } catch (IOException | IllegalArgumentException | java.io.UncheckedIOException e) {
            // an expected failure (port in use, unreadable file): the message says it all
            log().log(Level.DEBUG, "Kapi failed to start", e);
            err.println("Error: " + e.getMessage());
            return 1;
        } catch (RuntimeException e) {
            log().log(Level.ERROR, "Kapi failed to start", e);
            err.println("Error: " + e.getMessage());
            return 1;
        }
    }

    private static int serve(Options options, PrintStream out, StartClock clock) throws IOException {
        Auditor auditor = Auditor.create(options.audit()); // a policy that is not valid stops the start here
        String advertise = HostAddress.advertise(options.advertiseAddress(), options.bindAddress());
        if (options.selfSignedCertificates() || options.effectiveStorageBackend().equals("embedded")) {
            DataDirectory.secure(options.dataDir());
        }
        CompletableFuture<LocalPki> certificates = null;
        TlsMaterial tls = null;
        if (options.selfSignedCertificates()) {
            // the certificates load (or are made) while the API is assembled; on a first start the API
            // waits for them, as it reads the new cluster CA
            ServingNames names = servingNames(options, advertise);
            certificates = Background.start("kapi-certificates", () -> LocalPki.prepare(options.dataDir(), names));
            if (!Files.exists(options.dataDir().resolve("ca.crt"))) {
                Background.join(certificates);
            }
        } else {
            tls = TlsMaterial.fromFiles(options.tlsCertFile(), options.tlsPrivateKeyFile(), options.clientCaFile());
            if (tls.clientCas().isEmpty()) {
                log().log(Level.WARNING, "No --client-ca-file: client certificates are not accepted and only "
                        + "the health and version endpoints can be used");
            }
        }
        ApiConfig apiConfig = ApiConfig.builder()
                .dataDir(options.dataDir())
                .storageBackend(options.effectiveStorageBackend())
                .etcdServers(options.etcdServers())
                .serviceClusterIpRange(options.serviceClusterIpRange())
                .serviceNodePortRange(options.serviceNodePortRange())
                .advertiseAddress(advertise)
                .securePort(options.securePort())
                .standalone(options.standalone())
                .controllers(options.controllerSelection())
                .simulation(options.simulation().config())
                .eventTtl(options.eventTtl())
                .serviceAccountIssuer(options.serviceAccountIssuers().isEmpty() ? null
                        : options.serviceAccountIssuers().getFirst())
                .authorizationModes(options.authorizationModes())
                .admission(new ApiConfig.Admission(options.enableAdmissionPlugins(), options.disableAdmissionPlugins(),
                        options.admissionControlConfigFile()))
                .etcd(etcdConfig(options))
                .authentication(authentication(options, tls != null ? tls.clientCas() : clusterCa(options.dataDir())))
                .authorization(options.authorization())
                .features(new ApiConfig.Features(options.gates(), options.apis()))
                .aggregator(options.aggregator())
                .warmOpenApi(true)
                .storageMediaType(options.storageMediaType())
                .scheduler(options.scheduler())
                .metrics(options.metrics())
                .encryption(options.encryption())
                .flowControl(new FlowControls.Settings(options.enablePriorityAndFairness(),
                        options.maxRequestsInflight(), options.maxMutatingRequestsInflight()))
                .build();
        if (options.tracingConfigFile() != null) {
            // before the API is assembled: its stores trace only when tracing is on by then
            Tracing.install(TracingConfiguration.read(options.tracingConfigFile()), hostName(),
                    "apiserver-" + java.util.UUID.randomUUID());
        }
        ApiAssembly api = ApiAssembly.create(apiConfig, auditor);
        auditor.metrics().register(api.metrics());
        clock.mark("api");
        LocalPki pki;
        try {
            pki = certificates == null ? null : Background.join(certificates);
        } catch (RuntimeException e) {
            closeQuietly(api);
            throw e;
        }
        if (pki != null) {
            tls = pki.tls();
        }
        clock.mark("certificates");
        KapiServer server;
        try {
            ServerConfig config = api.serverConfig(options.bindAddress(), options.securePort(),
                    tls.acceptingAlso(requestHeaderCas(options)))
                    .withShutdownDelay(options.shutdownDelayDuration())
                    .withRequestTimeout(options.requestTimeout())
                    .withAuditor(auditor)
                    .withResponseCompression(options.gates().enabled("APIResponseCompression"));
            server = api.listen(config);
            clock.mark("listener");
        } catch (IOException | RuntimeException e) {
            auditor.shutdown();
            closeQuietly(api);
            throw e;
        }
        KapiServer started = server;
        Runnable stopAll = new Once(() -> {
            started.shutdown();
            auditor.shutdown(); // no request is served any more: flush the buffered events
            closeQuietly(api);
            Tracing.shutdown();
        });
        Signals.onTermination(stopAll);
        // for any other way out (System.exit, SIGHUP): stop as cleanly as the JVM lets us
        Runtime.getRuntime().addShutdownHook(new Thread(stopAll, "kapi-shutdown-hook"));
        if (pki != null) {
            Path kubeconfig = pki.writeKubeconfig(localUrl(options.bindAddress(), server.port()));
            ready(options, out, "Kapi is ready: kubectl --kubeconfig " + kubeconfig + " get ns");
        } else {
            ready(options, out, "Kapi is ready on https://" + advertise + ":" + server.port());
        }
        out.flush();
        clock.mark("kubeconfig");
        clock.log(log());
        // bin/kapi's memory policy: the heap given back once the server goes idle (README, "Memory and start-up")
        long idleSeconds = Long.getLong("kapi.idleCollectionSeconds", 0);
        if (idleSeconds > 0) {
            IdleCollection.start(server::requestsReceived, Duration.ofSeconds(idleSeconds));
        }
        try {
            server.awaitStopped();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stopAll.run();
        log().log(Level.INFO, "Storage closed; exiting");
        return 0;
    }

    /**
     * Tells the user the server is up: on stdout, or with {@code --logging-format=json} as a log line, so
     * that everything the server prints is one JSON object a line.
     */
    private static void ready(Options options, PrintStream out, String message) {
        if (options.logging().format() == io.kapi.logs.LogFormat.JSON) {
            log().log(Level.INFO, message);
        } else {
            out.println(message);
        }
    }

    /**
     * The cluster CA of self-made certificates: {@code ca.crt} exists by the time the API is assembled
     * (a first start waits for it), while the serving certificate may still be loading.
     */
    private static List<X509Certificate> clusterCa(Path dataDir) throws IOException {
        return Pem.certificates(Files.readString(dataDir.resolve("ca.crt")));
    }

    /** The authentication flags with the client CAs read and the service-account issuers in place. */
    /** The front-proxy CAs ({@code --requestheader-client-ca-file}), asked for in the TLS handshake too. */
    private static List<X509Certificate> requestHeaderCas(Options options) throws IOException {
        var rh = options.authentication().requestHeader();
        return rh == null || rh.clientCaFile() == null ? List.of()
                : io.kapi.certs.Pem.certificates(Files.readString(rh.clientCaFile()));
    }

    private static AuthenticationConfig authentication(Options options, List<X509Certificate> clientCas) {
        AuthenticationConfig a = options.authentication().withClientCas(clientCas);
        AuthenticationConfig.ServiceAccounts sa = a.serviceAccounts();
        return a.withServiceAccounts(new AuthenticationConfig.ServiceAccounts(sa.keyFiles(), sa.signingKeyFile(),
                options.serviceAccountIssuers(), sa.apiAudiences(), sa.lookup(), sa.maxTokenExpiration()));
    }

    /** The etcd client settings of the flags, when the backend is etcd3. */
    private static EtcdConfig etcdConfig(Options options) {
        if (!options.effectiveStorageBackend().equals("etcd3")) {
            return null;
        }
        EtcdOptions etcd = options.etcd();
        return EtcdConfig.of(options.etcdServers()).withPrefix(etcd.prefix())
                .withTls(etcd.caFile(), etcd.certFile(), etcd.keyFile())
                .withCompactionInterval(etcd.compactionInterval())
                .withHealthTimeout(etcd.healthcheckTimeout());
    }

    /** How a client on this machine reaches the server: loopback, unless bound to one address. */
    private static String localUrl(String bindAddress, int port) {
        InetAddress bind = InetAddress.ofLiteral(bindAddress);
        if (bind.isAnyLocalAddress()) {
            return "https://127.0.0.1:" + port;
        }
        String host = bindAddress.contains(":") ? "[" + bindAddress + "]" : bindAddress;
        return "https://" + host + ":" + port;
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    private static ServingNames servingNames(Options options, String advertise) {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = null;
        }
        String serviceIp = Cidr.parseSloppy(options.serviceClusterIpRange().split(",")[0].trim()).firstAddress();
        List<String> addresses = new ArrayList<>();
        addresses.add(options.bindAddress());
        addresses.add(advertise);
        return ServingNames.standard(host, serviceIp, addresses);
    }

    /** Runs its action once, whoever calls first; later callers wait until it has finished. */
    private record Once(Runnable action, AtomicBoolean started,
                        CountDownLatch done) implements Runnable {
        Once(Runnable action) {
            this(action, new AtomicBoolean(), new CountDownLatch(1));
        }

        @Override
        public void run() {
            if (started.compareAndSet(false, true)) {
                try {
                    action.run();
                } finally {
                    done.countDown();
                }
                return;
            }
            try {
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void closeQuietly(AutoCloseable resource) {
        try {
            resource.close();
        } catch (Exception e) {
            log().log(Level.WARNING, "error while closing the API", e);
        }
    }
}

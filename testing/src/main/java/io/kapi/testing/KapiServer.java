package io.kapi.testing;

import io.kapi.assembly.ApiAssembly;
import io.kapi.certs.LocalPki;
import io.kapi.certs.Pem;
import io.kapi.storage.Snapshots;
import io.kapi.storage.backends.Storages;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A real Kubernetes API server in this JVM: the same server {@code bin/kapi} runs (the same assembly
 * of the API, filter chain and Jetty listener over TLS), on {@code 127.0.0.1}, with everything it keeps
 * in one temporary directory that {@link #close()} removes. No network access, no download, no
 * Docker.
 *
 * <pre>{@code
 * try (KapiServer kapi = KapiServer.builder().start()) {
 *     KubernetesClient client = new KubernetesClientBuilder()
 *             .withConfig(Config.fromKubeconfig(kapi.kubeconfig())).build();
 *     ...
 * }
 * }</pre>
 *
 * {@link #start} returns once the server is ready (every post-start hook done: the system namespaces,
 * bootstrap RBAC policy, priority classes, the {@code kubernetes} service, the watch caches). The
 * one difference from {@code bin/kapi}: the OpenAPI documents are built on their first request
 * instead of in the background at start. Thread-safe; each server has its own port, store and
 * directory, so tests may start several at once.
 */
public final class KapiServer implements AutoCloseable {

    private final Launcher.Running running;
    private final LocalPki pki;
    private final String kubeconfig;
    private final Path kubeconfigFile;
    private final Snapshots snapshots;
    private final AdminHttp admin;
    private final Launcher.StartTimes startTimes;
    private final int port;
    private volatile boolean closed;

    KapiServer(Launcher.Running running, LocalPki pki, String kubeconfig, Path kubeconfigFile,
               Launcher.StartTimes startTimes) {
        this.running = running;
        this.startTimes = startTimes;
        this.port = running.server().port();
        this.pki = pki;
        this.kubeconfig = kubeconfig;
        this.kubeconfigFile = kubeconfigFile;
        this.snapshots = Storages.snapshots(running.api().storage()).orElse(null);
        this.admin = new AdminHttp(this);
    }

    /** A builder with the defaults: memory storage, a free port, certificates required, AlwaysAllow. */
    public static Builder builder() {
        return new Builder();
    }

    /** {@code https://127.0.0.1:<port>}. */
    public String url() {
        return "https://127.0.0.1:" + port();
    }

    /** The port the server listens on (listened on, once closed). */
    public int port() {
        return port;
    }

    /** A kubeconfig for the admin user ({@code kubernetes-admin} in {@code system:masters}), with the certificates embedded. */
    public String kubeconfig() {
        return kubeconfig;
    }

    /** The same kubeconfig as a file in the server's directory (for kubectl's {@code --kubeconfig}). */
    public Path kubeconfigFile() {
        return kubeconfigFile;
    }

    /** The CA that signed the serving certificate and the client certificates the server accepts. */
    public X509Certificate caCertificate() {
        return pki.ca();
    }

    /** {@link #caCertificate()} as PEM. */
    public String caCertificatePem() {
        return Pem.encode(pki.ca());
    }

    /** The admin client certificate, as PEM. */
    public String adminCertificatePem() {
        return Pem.encode(pki.adminCertificate());
    }

    /** The admin client certificate's private key, as PEM (a P-256 key in SEC1 form, {@code EC PRIVATE KEY}). */
    public String adminKeyPem() {
        return pki.adminKeyPem();
    }

    /** The server's temporary directory (certificates, kubeconfig, the embedded store); removed by {@link #close()}. */
    public Path directory() {
        return running.directory();
    }

    /**
     * Captures the whole API state: every object of every resource. Cheap (a few milliseconds for
     * thousands of objects; the stored bytes are shared, not copied).
     *
     * @throws UnsupportedOperationException on the embedded backend
     */
    public KapiSnapshot snapshot() {
        return new KapiSnapshot(requireSnapshots().snapshot());
    }

    /**
     * Brings the API state back to {@code snapshot}: objects created since are deleted, changed ones
     * get their old content back, deleted ones are created again (same name, uid and content). Not a
     * rewind: resourceVersions keep growing, and open watches (informers) see the changes as ordinary
     * ADDED, MODIFIED and DELETED events, so controllers under test follow along. Returns once every
     * watch cache of the server has the restored state, so any read after it sees it. The server's own
     * heartbeats (its apiserver identity lease in {@code kube-system}, its master lease) are left as
     * they are, current.
     *
     * @throws UnsupportedOperationException on the embedded backend
     */
    public void restore(KapiSnapshot snapshot) {
        Objects.requireNonNull(snapshot, "snapshot");
        Snapshots.Restored restored = requireSnapshots().restore(snapshot.keys(), KapiServer::restorable);
        if (!running.api().registry().caches().awaitRevision(restored.revision())) {
            throw new IllegalStateException("the watch caches did not reach the restored state in time");
        }
    }

    /** The library's own admin client of this server. */
    AdminHttp admin() {
        return admin;
    }

    /** Creates namespace {@code name} (as the admin, over HTTPS like any client). */
    public void createNamespace(String name) {
        admin.createNamespace(name);
    }

    /** Deletes namespace {@code name}; with the standalone controllers on, its contents are deleted too. */
    public void deleteNamespace(String name) {
        admin.deleteNamespace(name);
    }

    /** Whether a restore touches {@code key}: everything but the heartbeats the server keeps current itself. */
    private static boolean restorable(String key) {
        return !key.startsWith("/registry/masterleases/") && !key.startsWith("/registry/leases/kube-system/apiserver-");
    }

    private Snapshots requireSnapshots() {
        if (snapshots == null) {
            throw new UnsupportedOperationException("snapshot and restore need the memory storage backend "
                    + "(StorageBackend.MEMORY, the default); this server uses the embedded store");
        }
        return snapshots;
    }

    /** Where the start's time went (the benchmark prints it). */
    Launcher.StartTimes startTimes() {
        return startTimes;
    }

    /** The running API, for this package's tests. */
    ApiAssembly api() {
        return running.api();
    }

    /**
     * Stops the server (open watches end, connections close), releases its store and threads and
     * removes its directory. Safe to call more than once.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        admin.close();
        running.close();
    }

    @Override
    public String toString() {
        return "KapiServer[" + url() + ", " + directory() + "]";
    }

    /**
     * The options of a server; every one has {@code bin/kapi}'s default unless said otherwise. Reusable:
     * each {@link #start()} starts another server.
     */
    public static final class Builder {
        private StorageBackend storage = StorageBackend.MEMORY;
        private int port;
        private boolean authentication = true;
        private List<String> authorizationModes = List.of("AlwaysAllow");
        private List<String> enableAdmissionPlugins = List.of();
        private List<String> disableAdmissionPlugins = List.of();
        private final List<String> crds = new ArrayList<>();
        private boolean standaloneControllers = true;
        private List<String> controllers;
        private int simulatedNodes;
        private Boolean scheduler;
        private Duration startTimeout = Duration.ofMinutes(1);

        private Builder() {
        }

        /** Where objects are kept: {@link StorageBackend#MEMORY} (default) or the embedded store. */
        public Builder storage(StorageBackend backend) {
            storage = Objects.requireNonNull(backend, "backend");
            return this;
        }

        /** The port on 127.0.0.1; 0 (default) picks a free one. */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be 0-65535: " + port);
            }
            this.port = port;
            return this;
        }

        /**
         * Whether clients must authenticate (default true: a client certificate signed by the server's
         * CA, as for bin/kapi). When false, a request without credentials is served as the admin user
         * ({@code kubernetes-admin} in {@code system:masters}), so a client needs only the URL and CA.
         */
        public Builder authentication(boolean required) {
            authentication = required;
            return this;
        }

        /**
         * {@code --authorization-mode}: kube-apiserver's mode names, in order (default
         * {@code AlwaysAllow}): {@code AlwaysAllow}, {@code AlwaysDeny}, {@code RBAC} (with kube's bootstrap
         * policy) and {@code Node}, as bin/kapi runs them. The admin is in {@code system:masters}, which every
         * mode allows; a test acts as another user by impersonating it. {@code ABAC} and {@code Webhook} need a
         * policy or configuration file the builder does not take, and, as an unknown name, fail {@link #start()}.
         */
        public Builder authorizationModes(String... modes) {
            authorizationModes = List.of(modes);
            return this;
        }

        /** {@code --enable-admission-plugins}: added to kube-apiserver's default set. */
        public Builder enableAdmissionPlugins(String... plugins) {
            enableAdmissionPlugins = List.of(plugins);
            return this;
        }

        /** {@code --disable-admission-plugins}: taken from kube-apiserver's default set. */
        public Builder disableAdmissionPlugins(String... plugins) {
            disableAdmissionPlugins = List.of(plugins);
            return this;
        }

        /**
         * CustomResourceDefinitions ({@code apiextensions.k8s.io/v1}) to install before {@link #start()}
         * returns, from YAML or JSON files ({@code file:} or a plain path) or class-path resources
         * ({@code classpath:crds/widget.yaml}); a YAML file may hold several, separated by {@code ---} lines
         * as for {@code kubectl create -f}. {@link #start()} returns once each is {@code Established}, its
         * API served. Adds to the locations given before.
         */
        public Builder crds(String... locations) {
            crds.addAll(List.of(locations));
            return this;
        }

        /**
         * Whether to run bin/kapi's standalone controllers (default true, as {@code --standalone}):
         * namespace deletion, the {@code default} service account and {@code kube-root-ca.crt} in every
         * namespace, ClusterRole aggregation. Off, the server is a bare API server like envtest's: as envtest
         * starts kube-apiserver, the ServiceAccount admission plugin is then off unless enabled by name (nothing
         * would make the {@code default} account it requires of every pod).
         */
        public Builder standaloneControllers(boolean on) {
            standaloneControllers = on;
            return this;
        }

        /**
         * kube-controller-manager's {@code --controllers}, as {@code bin/kapi} takes it: {@code "*"} (every
         * controller kube turns on by default, with the workload controllers: deployment, replicaset,
         * replicationcontroller, endpoints, endpointslice), {@code "foo"} (on), {@code "-foo"} (off), in kube's
         * names ({@code "deployment-controller"} or the alias {@code "deployment"}). Not called: bin/kapi's
         * default set (namespaces, service accounts, garbage collection and the others it ran before, no
         * workload controller). Applies while {@link #standaloneControllers} is on.
         *
         * <p>Pods stay Pending (no kubelet): a test marks a Pod ready through its {@code status} subresource.
         */
        public Builder controllers(String... selectors) {
            controllers = List.of(selectors);
            return this;
        }

        /**
         * {@code bin/kapi --simulated-nodes=n}: registers {@code n} simulated nodes ({@code kapi-node-0} …, 4 CPUs,
         * 16 Gi, 110 Pods, spread over three zones), Ready and renewing their Leases, whose simulated kubelets run
         * the Pods bound to them (Running and Ready, Jobs' Pods Succeeded, graceful deletion); see the README for
         * the annotations that make a Pod fail or crash-loop. Applies while {@link #standaloneControllers} is on.
         */
        public Builder simulatedNodes(int n) {
            if (n < 0) {
                throw new IllegalArgumentException("simulatedNodes must not be negative");
            }
            simulatedNodes = n;
            return this;
        }

        /**
         * Whether Kapi's scheduler runs (kube-scheduler's default profile, as {@code --scheduler}): it binds
         * Pods whose {@code schedulerName} is {@code default-scheduler} to the Nodes a test creates. Not
         * called: bin/kapi's default (on with simulated nodes, else off).
         */
        public Builder scheduler(boolean on) {
            scheduler = on;
            return this;
        }

        /** How long {@link #start()} waits for the server to become ready (default 1 minute). */
        public Builder startTimeout(Duration timeout) {
            startTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /**
         * Starts a server and returns when it is ready.
         *
         * @throws IllegalArgumentException for an unknown authorization mode or admission plugin, or a CRD
         *         location that cannot be read (before any server starts)
         * @throws IllegalStateException when the server cannot start (port in use, not ready in time), or
         *         refuses a CRD (with its message; the server is stopped again)
         */
        public KapiServer start() {
            List<CrdInstaller.Manifest> manifests = CrdInstaller.read(crds);
            KapiServer server = Launcher.start(new Launcher.Settings(storage, port, authentication, authorizationModes,
                    enableAdmissionPlugins, disableAdmissionPlugins, standaloneControllers, startTimeout, controllers,
                    simulatedNodes, scheduler));
            if (!manifests.isEmpty()) {
                try {
                    CrdInstaller.install(server.admin(), manifests, startTimeout);
                } catch (RuntimeException e) {
                    server.close();
                    throw e;
                }
            }
            return server;
        }

        /**
         * Starts this builder's API without a listener (its port and authentication settings do not apply)
         * and returns once its post-start hooks have run and its CRDs are established; requests go through
         * {@link InMemoryKapi#client()}.
         *
         * @throws IllegalArgumentException as {@link #start()}
         * @throws IllegalStateException when a post-start hook fails, or a CRD is refused
         */
        public InMemoryKapi startInMemory() {
            List<CrdInstaller.Manifest> manifests = CrdInstaller.read(crds);
            InMemoryKapi kapi = Launcher.startInMemory(new Launcher.Settings(storage, port, authentication,
                    authorizationModes, enableAdmissionPlugins, disableAdmissionPlugins, standaloneControllers,
                    startTimeout, controllers, simulatedNodes, scheduler));
            if (!manifests.isEmpty()) {
                try {
                    CrdInstaller.install(kapi.admin(), manifests, startTimeout);
                } catch (RuntimeException e) {
                    kapi.close();
                    throw e;
                }
            }
            return kapi;
        }
    }
}

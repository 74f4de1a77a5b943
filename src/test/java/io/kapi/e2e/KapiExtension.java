package io.kapi.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import io.kapi.storage.etcd.EtcdCluster;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * One real Kapi server per test class: started before the class's first test, stopped (and its data
 * deleted) after the last. Register it as a static field:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final KapiExtension KAPI = new KapiExtension();
 * ...
 * KAPI.kubectl().run("get", "ns").assertOk();
 * }</pre>
 *
 * When a test fails, the tail of the server's log is printed to stderr next to the failure. With
 * {@code -Dkapi.e2e.storage=etcd} the server runs on a real etcd started for the class (the pom runs
 * some ITs a second time that way), unless the class asks for a backend itself.
 */
public final class KapiExtension implements BeforeAllCallback, AfterAllCallback, TestWatcher {

    private final List<String> serverArgs;
    private KapiProcess kapi;
    private EtcdCluster etcd;
    private Path cacheDir;

    /** @param serverArgs extra server flags, e.g. {@code --storage-backend=memory} */
    public KapiExtension(String... serverArgs) {
        this.serverArgs = List.of(serverArgs);
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException, InterruptedException {
        String name = context.getRequiredTestClass().getSimpleName();
        List<String> args = serverArgs;
        if ("etcd".equals(System.getProperty("kapi.e2e.storage")) && args.stream().noneMatch(a -> a.startsWith("--storage-backend"))) {
            etcd = EtcdCluster.single().start(name);
            args = new java.util.ArrayList<>(serverArgs);
            args.add("--etcd-servers=" + etcd.servers());
        }
        kapi = new KapiProcess(name, args);
        cacheDir = Files.createTempDirectory(kapi.dataDir().getParent(), name + "-kubectl-cache-");
        kapi.start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (kapi != null) {
            kapi.close();
            KapiProcess.deleteTree(cacheDir);
        }
        if (etcd != null) {
            etcd.close();
        }
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        if (kapi != null) {
            System.err.println("=== " + context.getDisplayName() + " failed; server log " + kapi.logFile()
                    + " (last 60 lines) ===\n" + kapi.logTail(60) + "\n===");
        }
    }

    public KapiProcess kapi() {
        return kapi;
    }

    /** kubectl on the PATH (1.32), pointed at this server's admin kubeconfig. */
    public Kubectl kubectl() {
        return kubectl(Kubectl.DEFAULT);
    }

    /** The given kubectl binary, pointed at this server's admin kubeconfig. */
    public Kubectl kubectl(Path binary) {
        try {
            Path cache = Files.createDirectories(cacheDir.resolve(binary.getFileName().toString()));
            return new Kubectl(binary, kapi.kubeconfigPath(), cache);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** kubectl on the PATH pointed at another kubeconfig of this server (another identity). */
    public Kubectl kubectlWith(Path kubeconfig) {
        try {
            Path cache = Files.createDirectories(cacheDir.resolve(kubeconfig.getFileName().toString()));
            return new Kubectl(Kubectl.DEFAULT, kubeconfig, cache);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A Java HTTP/2 client with the admin client certificate; the caller closes it. */
    public ApiClient client() {
        return ApiClient.of(kapi.kubeconfig());
    }

    /** fabric8's client with the admin kubeconfig (its key algorithm told, as fabric8 needs); the caller closes it. */
    public io.fabric8.kubernetes.client.KubernetesClient fabric8() {
        try {
            var config = io.fabric8.kubernetes.client.Config.fromKubeconfig(Files.readString(kapi.kubeconfigPath()));
            config.setClientKeyAlgo(kapi.kubeconfig().clientKeyAlgorithm());
            return new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(config).build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.kapi.testing;

import io.kapi.apis.subresources.ServiceAccountKeys;
import io.kapi.assembly.AdmissionPlugins;
import io.kapi.assembly.ApiAssembly;
import io.kapi.assembly.ApiConfig;
import io.kapi.authn.AuthenticationConfig;
import io.kapi.authn.Authenticator;
import io.kapi.authn.ClientCertificateAuthenticator;
import io.kapi.authz.modes.AuthorizationModes;
import io.kapi.certs.LocalPki;
import io.kapi.machinery.schema.Schemas;
import io.kapi.server.ServerConfig;
import io.kapi.user.UserInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Starts an in-process server the way {@code bin/kapi}'s {@code Main} does (certificates, then
 * {@link ApiAssembly#create}, {@link ApiAssembly#serverConfig} and {@link ApiAssembly#listen}), with the
 * library's settings turned into the same {@link ApiConfig} and {@link ServerConfig} the flags make.
 */
final class Launcher {

    private static final String LOOPBACK = "127.0.0.1";
    private static final UserInfo ADMIN = new UserInfo(LocalPki.ADMIN_USER, "", List.of("system:masters"));
    private static final int BIND_ATTEMPTS = 5;

    /** The builder's values, checked. */
    record Settings(StorageBackend storage, int port, boolean authentication, List<String> authorizationModes,
                    List<String> enableAdmissionPlugins, List<String> disableAdmissionPlugins,
                    boolean standaloneControllers, Duration startTimeout, List<String> controllers,
                    int simulatedNodes, Boolean scheduler) {
    }

    /**
     * Where a start's time went: certificates made or copied, waiting for the JVM-wide data (schemas,
     * service-account key) read meanwhile, the API built and listening, the post-start hooks.
     */
    record StartTimes(Duration certificates, Duration preload, Duration listen, Duration hooks) {
        Duration total() {
            return certificates.plus(preload).plus(listen).plus(hooks);
        }
    }

    /** A started server with what it owns; {@link #close()} stops it and removes its directory. */
    record Running(Path directory, ApiAssembly api, io.kapi.server.KapiServer server) implements AutoCloseable {
        @Override
        public void close() {
            try {
                // End the open watches first: the listener's graceful stop waits for every request in
                // flight, and a watch with nothing to send would hold it for its whole drain time.
                api.registry().caches().close();
                server.shutdown();
            } finally {
                try {
                    api.close();
                } catch (Exception e) {
                    throw new IllegalStateException("cannot close the API of " + directory, e);
                } finally {
                    TempDirs.delete(directory);
                }
            }
        }
    }

    private Launcher() {
    }

    static KapiServer start(Settings settings) {
        check(settings);
        long begin = System.nanoTime();
        Thread preload = preload(settings.storage());
        Path dir = TempDirs.create();
        try {
            LocalPki pki = TestPki.in(dir);
            long certificates = System.nanoTime();
            preload.join();
            long preloaded = System.nanoTime();
            Running running = listen(settings, dir, pki);
            long listening = System.nanoTime();
            awaitReady(running, settings.startTimeout());
            long ready = System.nanoTime();
            TestPki.remember(pki);
            String url = "https://" + LOOPBACK + ":" + running.server().port();
            Path kubeconfig = pki.writeKubeconfig(url);
            StartTimes times = new StartTimes(Duration.ofNanos(certificates - begin), Duration.ofNanos(preloaded - certificates),
                    Duration.ofNanos(listening - preloaded), Duration.ofNanos(ready - listening));
            return new KapiServer(running, pki, Files.readString(kubeconfig), kubeconfig, times);
        } catch (IOException e) {
            TempDirs.delete(dir);
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            TempDirs.delete(dir);
            throw new IllegalStateException("interrupted while starting Kapi", e);
        } catch (RuntimeException e) {
            TempDirs.delete(dir);
            throw e;
        }
    }

    /** The API of {@code settings} served in memory, its post-start hooks run (port and authentication unused). */
    static InMemoryKapi startInMemory(Settings settings) {
        check(settings);
        Path dir = TempDirs.create();
        ApiAssembly api = null;
        try {
            LocalPki pki = TestPki.in(dir);
            api = ApiAssembly.create(apiConfig(settings, dir, 0, pki));
            return new InMemoryKapi(api, api.inMemory(null), dir);
        } catch (RuntimeException e) {
            if (api != null) {
                closeQuietly(api);
            }
            TempDirs.delete(dir);
            throw e;
        }
    }

    /** Refuses an unknown or repeated mode, or unknown plugins, before anything starts. */
    private static void check(Settings settings) {
        if (settings.controllers() != null) {
            List<String> problems = io.kapi.controllers.ControllerSelection.parse(settings.controllers()).problems();
            if (!problems.isEmpty()) {
                throw new IllegalArgumentException("controllers: " + String.join(", ", problems));
            }
        }
        Quiet.logs();
        // building the modes needs the API (RBAC reads it): their names are checked first
        AuthorizationModes.validate(settings.authorizationModes());
        List<String> problems = AdmissionPlugins.problems(settings.enableAdmissionPlugins(),
                settings.disableAdmissionPlugins());
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
    }

    /**
     * Reads the JVM-wide data (schemas, the ephemeral service-account key) on another thread while
     * this one makes or copies the certificates; a no-op once they exist.
     */
    private static Thread preload(StorageBackend storage) {
        return Thread.ofVirtual().name("kapi-preload").start(() -> {
            Schemas.builtin();
            if (storage == StorageBackend.MEMORY) {
                ServiceAccountKeys.ephemeral();
            }
        });
    }

    /** Builds the API and listens; with port 0, on a free port, trying another if it was taken meanwhile. */
    private static Running listen(Settings settings, Path dir, LocalPki pki) throws IOException {
        for (int attempt = 1; ; attempt++) {
            int port = settings.port() != 0 ? settings.port() : freePort();
            ApiAssembly api = ApiAssembly.create(apiConfig(settings, dir, port, pki));
            try {
                // as bin/kapi: the server's own authentication chain (certificates, tokens, anonymous as kube
                // decides it for the modes) and authorizer
                ServerConfig config = api.serverConfig(LOOPBACK, port, pki.tls());
                if (!settings.authentication()) {
                    config = config.withAuthenticator(Authenticator.union(List.of(
                            new ClientCertificateAuthenticator(pki.tls().clientCas()),
                            (request, certificates) -> Optional.of(ADMIN))));
                }
                return new Running(dir, api, api.listen(config));
            } catch (IOException | RuntimeException e) {
                closeQuietly(api);
                if (!(e instanceof IOException) || settings.port() != 0 || attempt == BIND_ATTEMPTS) {
                    throw new IllegalStateException("Kapi cannot start: " + e.getMessage(), e);
                }
            }
        }
    }

    private static ApiConfig apiConfig(Settings settings, Path dir, int port, LocalPki pki) {
        return ApiConfig.builder()
                .authorizationModes(settings.authorizationModes())
                .authentication(AuthenticationConfig.DEFAULT.withClientCas(pki.tls().clientCas()))
                .dataDir(dir)
                .storageBackend(settings.storage().flag())
                .advertiseAddress(LOOPBACK)
                .securePort(port)
                .standalone(settings.standaloneControllers())
                .scheduler(settings.scheduler())
                .controllers(settings.controllers() != null
                        ? io.kapi.controllers.ControllerSelection.parse(settings.controllers())
                        : settings.simulatedNodes() > 0 ? io.kapi.controllers.ControllerSelection.ALL
                        : io.kapi.controllers.ControllerSelection.DEFAULT)
                .admission(admission(settings))
                .simulation(io.kapi.simulation.SimulationConfig.of(settings.simulatedNodes(), null))
                .build();
    }

    /** The settings' plugins; without the standalone controllers, as envtest runs kube-apiserver (no ServiceAccount). */
    private static ApiConfig.Admission admission(Settings settings) {
        ApiConfig.Admission admission = new ApiConfig.Admission(settings.enableAdmissionPlugins(),
                settings.disableAdmissionPlugins());
        return settings.standaloneControllers() ? admission : admission.bare();
    }

    private static void awaitReady(Running running, Duration timeout) throws InterruptedException {
        if (!running.server().awaitReady(timeout)) {
            running.close();
            throw new IllegalStateException("Kapi was not ready within " + timeout);
        }
    }

    /**
     * A port free on the loopback address now. The API must know its port before it listens (the
     * {@code kubernetes} endpoints carry it), hence a pick rather than binding port 0.
     */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
            return socket.getLocalPort();
        }
    }

    private static void closeQuietly(ApiAssembly api) {
        try {
            api.close();
        } catch (Exception ignored) {
            // the start failed already; that failure is what the caller hears of
        }
    }
}

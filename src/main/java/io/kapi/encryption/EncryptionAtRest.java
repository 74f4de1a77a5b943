package io.kapi.encryption;

import io.kapi.metrics.EncryptionMetrics;
import io.kapi.storage.ValueTransformer;
import java.io.IOException;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Encryption at rest as configured by {@code --encryption-provider-config}: each resource's value
 * transformer, the health checks of the KMS plugins, and, with automatic reload, a loop that swaps in a
 * changed file once it is valid and its KMS plugins answer (a bad file leaves the running configuration
 * in place and counts a failed reload, as kube does).
 *
 * <p>Health checks keep kube's names: {@code kms-provider-0}, {@code kms-provider-1}, ... per KMS provider
 * of the file; under automatic reload one {@code kms-providers} check over whatever the current file lists.
 */
public final class EncryptionAtRest implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(EncryptionAtRest.class.getName());
    /** How often the file is read for changes under automatic reload (and KMS plugins polled for key IDs). */
    static final Duration POLL = Duration.ofSeconds(5);
    /** How long a replaced configuration's plugin connections stay open for reads already under way. */
    private static final Duration CLOSE_GRACE = Duration.ofSeconds(10);

    /** A named health check; {@link #check} throws when unhealthy. */
    public record Check(String name, Probe probe) {
        public void check() {
            probe.run();
        }
    }

    @FunctionalInterface
    public interface Probe {
        void run();
    }

    private final EncryptionOptions options;
    private final EncryptionMetrics metrics;
    private final String apiServerId;
    private final AtomicReference<Providers> current;
    private final Thread loop;
    private volatile boolean closed;

    private EncryptionAtRest(EncryptionOptions options, EncryptionMetrics metrics, String apiServerId, Providers first) {
        this.options = options;
        this.metrics = metrics;
        this.apiServerId = apiServerId;
        this.current = new AtomicReference<>(first);
        this.loop = first.kms().isEmpty() && !options.automaticReload() ? null
                : Thread.ofVirtual().name("kapi-encryption-config").start(this::poll);
    }

    /**
     * Loads the configuration.
     *
     * @param apiServerId this server's identity (its hash labels the envelope metrics)
     * @throws IllegalArgumentException when the file cannot be read or is invalid, with kube's words
     */
    public static EncryptionAtRest open(EncryptionOptions options, EncryptionMetrics metrics, String apiServerId) {
        return new EncryptionAtRest(options, metrics, apiServerId, load(options, metrics, apiServerId));
    }

    private static Providers load(EncryptionOptions options, EncryptionMetrics metrics, String apiServerId) {
        byte[] digest = digest(options);
        EncryptionConfiguration config = EncryptionConfiguration.read(options.configFile(), options.automaticReload());
        return new Providers(config, digest, metrics, apiServerId, k -> Providers.client(k, metrics));
    }

    /** The transformer of {@code resource} in {@code group}, following reloads. */
    public ValueTransformer transformer(String group, String resource) {
        return new ValueTransformer() {
            @Override
            public byte[] toStorage(byte[] plain, String key) {
                return current.get().transformer(group, resource).toStorage(plain, key);
            }

            @Override
            public byte[] fromStorage(byte[] stored, String key) {
                return current.get().transformer(group, resource).fromStorage(stored, key);
            }

            @Override
            public boolean stale(byte[] stored, String key) {
                return current.get().transformer(group, resource).stale(stored, key);
            }
        };
    }

    /** The health checks of the KMS plugins, as kube names them. */
    public List<Check> checks() {
        if (options.automaticReload()) {
            return List.of(new Check("kms-providers", () -> {
                List<String> failures = new ArrayList<>();
                for (KmsV2 kms : current.get().kms()) {
                    try {
                        kms.probe();
                    } catch (RuntimeException e) {
                        failures.add("health check for KMS provider " + kms.name() + " failed: " + e.getMessage());
                    }
                }
                if (!failures.isEmpty()) {
                    throw new IllegalStateException(String.join(", ", failures));
                }
            }));
        }
        List<Check> checks = new ArrayList<>();
        List<KmsV2> kms = current.get().kms();
        for (int i = 0; i < kms.size(); i++) {
            KmsV2 provider = kms.get(i);
            checks.add(new Check("kms-provider-" + i, provider::probe));
        }
        return checks;
    }

    private void poll() {
        long lastProbe = 0;
        while (!closed) {
            try {
                Thread.sleep(POLL);
            } catch (InterruptedException e) {
                return;
            }
            if (options.automaticReload()) {
                reloadIfChanged();
            }
            if (System.nanoTime() - lastProbe >= KmsV2.HEALTHY_TTL.toNanos()) {
                lastProbe = System.nanoTime();
                for (KmsV2 kms : current.get().kms()) {
                    try {
                        kms.probe();
                    } catch (RuntimeException e) {
                        LOG.log(System.Logger.Level.WARNING, "KMS provider {0} is unhealthy: {1}", kms.name(), e.getMessage());
                    }
                }
            }
        }
    }

    /** Swaps in the file when its content changed, it is valid and its KMS plugins answer. */
    void reloadIfChanged() {
        Providers old = current.get();
        byte[] digest;
        try {
            digest = digest(options);
        } catch (IllegalArgumentException e) {
            return;
        }
        if (Arrays.equals(digest, old.digest)) {
            return;
        }
        Providers next;
        try {
            next = load(options, metrics, apiServerId);
            for (KmsV2 kms : next.kms()) {
                kms.refresh();
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "failed to reload encryption configuration: {0}", e.getMessage());
            metrics.reload(false, apiServerId);
            markFailed(old, digest);
            return;
        }
        current.set(next);
        metrics.reload(true, apiServerId);
        LOG.log(System.Logger.Level.INFO, "loaded new encryption configuration");
        Thread.ofVirtual().start(() -> {
            try {
                Thread.sleep(CLOSE_GRACE);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            old.close();
        });
    }

    /** A bad file is tried again only once it changes again. */
    private void markFailed(Providers running, byte[] digest) {
        System.arraycopy(digest, 0, running.digest, 0, Math.min(digest.length, running.digest.length));
    }

    private static byte[] digest(EncryptionOptions options) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(options.configFile()));
        } catch (IOException e) {
            throw new IllegalArgumentException("error reading encryption provider configuration file \""
                    + options.configFile() + "\": " + e.getMessage());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        closed = true;
        if (loop != null) {
            loop.interrupt();
        }
        current.get().close();
    }
}

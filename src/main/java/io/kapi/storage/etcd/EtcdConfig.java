package io.kapi.storage.etcd;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Where and how to reach etcd, kube-apiserver's {@code --etcd-*} flags; immutable. Start from
 * {@link #of(List)} and change single values with the {@code with…} methods.
 *
 * @param servers client URLs, {@code http://host:port} or {@code https://host:port} ({@code --etcd-servers})
 * @param prefix the etcd key prefix Kapi's {@code /registry} is mapped onto ({@code --etcd-prefix},
 *        default {@code /registry}, so that keys are exactly kube-apiserver's)
 * @param caFile CA bundle to verify etcd's serving certificates ({@code --etcd-cafile}), or null
 * @param certFile client certificate ({@code --etcd-certfile}), or null
 * @param keyFile its private key ({@code --etcd-keyfile}), or null
 * @param compactionInterval how often history is compacted, as kube-apiserver does (CAS on
 *        {@code compact_rev_key}, so that several servers compact once); zero disables it
 *        ({@code --etcd-compaction-interval}, default 5 minutes)
 * @param requestTimeout the deadline of every etcd request: a write without quorum fails after it
 *        (etcd itself gives up after about 7 s), it never hangs
 * @param healthTimeout the deadline of the health check's round trip ({@code --etcd-healthcheck-timeout}, 2 s)
 */
public record EtcdConfig(List<String> servers, String prefix, Path caFile, Path certFile, Path keyFile,
                         Duration compactionInterval, Duration requestTimeout, Duration healthTimeout) {

    public EtcdConfig {
        servers = List.copyOf(servers);
        if (servers.isEmpty()) {
            throw new IllegalArgumentException("no etcd servers");
        }
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(compactionInterval, "compactionInterval");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        Objects.requireNonNull(healthTimeout, "healthTimeout");
        if ((certFile == null) != (keyFile == null)) {
            throw new IllegalArgumentException("--etcd-certfile and --etcd-keyfile must be given together");
        }
    }

    /** kube-apiserver's defaults for {@code servers}. */
    public static EtcdConfig of(List<String> servers) {
        return new EtcdConfig(servers, "/registry", null, null, null, Duration.ofMinutes(5),
                Duration.ofSeconds(15), Duration.ofSeconds(2));
    }

    public EtcdConfig withPrefix(String value) {
        return new EtcdConfig(servers, value, caFile, certFile, keyFile, compactionInterval, requestTimeout,
                healthTimeout);
    }

    public EtcdConfig withTls(Path ca, Path cert, Path key) {
        return new EtcdConfig(servers, prefix, ca, cert, key, compactionInterval, requestTimeout, healthTimeout);
    }

    public EtcdConfig withCompactionInterval(Duration value) {
        return new EtcdConfig(servers, prefix, caFile, certFile, keyFile, value, requestTimeout, healthTimeout);
    }

    public EtcdConfig withRequestTimeout(Duration value) {
        return new EtcdConfig(servers, prefix, caFile, certFile, keyFile, compactionInterval, value, healthTimeout);
    }

    public EtcdConfig withHealthTimeout(Duration value) {
        return new EtcdConfig(servers, prefix, caFile, certFile, keyFile, compactionInterval, requestTimeout, value);
    }
}

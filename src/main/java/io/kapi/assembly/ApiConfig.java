package io.kapi.assembly;

import io.kapi.storage.etcd.EtcdConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What the API layers need from the command line, after defaulting and validation.
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
 * @param etcd how to reach etcd when the backend is etcd3 (else null)
 */
public record ApiConfig(Path dataDir, String storageBackend, List<String> etcdServers,
                        String serviceClusterIpRange, String serviceNodePortRange, String advertiseAddress,
                        int securePort, boolean standalone, Duration eventTtl, String serviceAccountIssuer,
                        EtcdConfig etcd) {
}

package io.kapi.storage;

import io.kapi.storage.backends.Storages;
import io.kapi.storage.etcd.EtcdCluster;
import io.kapi.storage.etcd.EtcdConfig;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The contract on a real etcd (one member): each test gets its own {@code --etcd-prefix}, so its
 * store starts empty, while revisions are the cluster's (not 0, and shared with earlier tests).
 */
@DisplayName("etcd storage")
final class EtcdStorageTest extends StorageContract {

    @RegisterExtension
    static final EtcdCluster ETCD = EtcdCluster.single();

    private static final AtomicInteger OPENED = new AtomicInteger();

    @Override
    protected Storage open(StorageOptions options) {
        return Storages.etcd(EtcdConfig.of(ETCD.endpoints()).withPrefix("/contract-" + OPENED.incrementAndGet())
                .withCompactionInterval(Duration.ZERO), options);
    }
}

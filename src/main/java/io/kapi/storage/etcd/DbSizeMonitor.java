package io.kapi.storage.etcd;

import io.etcd.jetcd.Maintenance;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The size of etcd's database as its Status call reports it ({@code dbSize}), asked at most once per
 * period and in the background, as kube-apiserver's database size monitor polls it: a scrape never waits
 * for etcd, and reads the last size known (-1 before the first answer).
 */
final class DbSizeMonitor {

    /** kube's {@code --etcd-db-metric-poll-interval} default. */
    static final long PERIOD_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final Maintenance maintenance;
    private final String endpoint;
    private final AtomicLong size = new AtomicLong(-1);
    private final AtomicLong lastAsked = new AtomicLong(System.nanoTime() - PERIOD_NANOS);
    private final AtomicBoolean asking = new AtomicBoolean();

    DbSizeMonitor(Maintenance maintenance, String endpoint) {
        this.maintenance = maintenance;
        this.endpoint = endpoint;
    }

    /** The last size etcd reported, in bytes; asks again when the last answer is older than the period. */
    long sizeBytes() {
        long asked = lastAsked.get();
        long now = System.nanoTime();
        if (now - asked >= PERIOD_NANOS && asking.compareAndSet(false, true)) {
            lastAsked.set(now);
            maintenance.statusMember(endpoint).orTimeout(5, TimeUnit.SECONDS).whenComplete((status, failure) -> {
                if (failure == null) {
                    size.set(status.getDbSize());
                }
                asking.set(false);
            });
        }
        return size.get();
    }
}

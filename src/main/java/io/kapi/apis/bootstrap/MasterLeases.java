package io.kapi.apis.bootstrap;

import io.kapi.storage.KeyValue;
import io.kapi.storage.StorageException;
import io.kapi.storage.Storage;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The apiserver leases of kube-apiserver's lease endpoint reconciler: each replica keeps the key
 * {@code /registry/masterleases/{ip}} alive (kube: etcd TTL 15 s, renewed every 10 s), and the
 * kubernetes endpoints list the IPs of the live leases. The storage has no TTL, so a lease holds its
 * expiry time (epoch milliseconds) and an expired lease is deleted by whoever sees it.
 */
final class MasterLeases {

    static final String PREFIX = "/registry/masterleases/";

    private final Storage storage;
    private final Clock clock;
    private final Duration ttl;

    MasterLeases(Storage storage, Clock clock, Duration ttl) {
        this.storage = storage;
        this.clock = clock;
        this.ttl = ttl;
    }

    /** Creates or extends this replica's lease. */
    void renew(String ip) {
        byte[] expiry = Long.toString(clock.millis() + ttl.toMillis()).getBytes(StandardCharsets.UTF_8);
        for (int attempt = 0; attempt < 3; attempt++) {
            Optional<KeyValue> current = storage.get(PREFIX + ip);
            try {
                if (current.isEmpty()) {
                    storage.create(PREFIX + ip, expiry);
                } else {
                    storage.update(PREFIX + ip, expiry, current.get().modRevision());
                }
                return;
            } catch (StorageException.KeyExists | StorageException.Conflict | StorageException.KeyNotFound e) {
                // another writer in between: read again
            }
        }
    }

    /** Deletes this replica's lease (on shutdown), so the others drop it from the endpoints at once. */
    void remove(String ip) {
        storage.get(PREFIX + ip).ifPresent(kv -> deleteQuietly(kv));
    }

    /** The IPs of the live leases, in key order; expired leases are deleted. */
    List<String> liveIps() {
        long now = clock.millis();
        List<String> ips = new ArrayList<>();
        for (KeyValue kv : storage.range(PREFIX, null, 0, 0).items()) {
            if (expiry(kv) > now) {
                ips.add(kv.key().substring(PREFIX.length()));
            } else {
                deleteQuietly(kv);
            }
        }
        return ips;
    }

    private static long expiry(KeyValue kv) {
        try {
            return Long.parseLong(new String(kv.value(), StandardCharsets.UTF_8).trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private void deleteQuietly(KeyValue kv) {
        try {
            storage.delete(kv.key(), kv.modRevision());
        } catch (StorageException.Conflict | StorageException.KeyNotFound e) {
            // renewed or deleted meanwhile
        }
    }
}

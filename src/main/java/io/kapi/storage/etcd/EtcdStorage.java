package io.kapi.storage.etcd;

import static io.kapi.storage.etcd.KeyLayout.bytes;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.kapi.storage.KeyValue;
import io.kapi.storage.RangeResult;
import io.kapi.storage.Storage;
import io.kapi.storage.StorageException;
import io.kapi.storage.StorageOptions;
import io.kapi.storage.Watch;
import io.kapi.storage.WatchEvent;
import io.kapi.storage.core.Mutation;
import java.lang.System.Logger.Level;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The etcd3 backend: every call is one etcd request (writes are transactions comparing the key's
 * version and mod revision, as kube-apiserver's etcd3 store), every read is linearizable, revisions
 * are etcd's. Watches are {@link EtcdWatch}es, compaction is the {@link EtcdCompactor}'s.
 */
final class EtcdStorage implements Storage {

    private static final System.Logger LOG = System.getLogger(EtcdStorage.class.getName());
    private static final GetOption COUNT_ONLY = GetOption.builder().withCountOnly(true).build();

    private final Client client;
    private final KV kv;
    private final KeyLayout layout;
    private final EtcdCalls calls;
    private final EtcdCalls healthCalls;
    private final StorageOptions options;
    private final EtcdCompactor compactor;
    private final DbSizeMonitor dbSize;
    private final Set<EtcdWatch> watches = ConcurrentHashMap.newKeySet();
    private final AtomicLong compacted = new AtomicLong();
    private volatile boolean closed;
    private volatile boolean lastHealthy = true;

    EtcdStorage(EtcdConfig config, StorageOptions options) {
        this.client = EtcdClients.open(config);
        this.kv = client.getKVClient();
        this.layout = new KeyLayout(config.prefix());
        this.calls = new EtcdCalls(config.requestTimeout());
        this.healthCalls = new EtcdCalls(config.healthTimeout());
        this.options = options;
        this.compactor = new EtcdCompactor(kv, calls, config.compactionInterval(), this::compacted);
        this.dbSize = new DbSizeMonitor(client.getMaintenanceClient(), config.servers().getFirst());
    }

    @Override
    public long sizeBytes() {
        return closed ? -1 : dbSize.sizeBytes();
    }

    @Override
    public long currentRevision() {
        open();
        return idempotent(() -> calls.await(kv.get(bytes(layout.healthKey()), COUNT_ONLY), layout.healthKey(), 0),
                layout.healthKey()).getHeader().getRevision();
    }

    @Override
    public KeyValue create(String key, byte[] value) {
        Mutation.checkSize(key, value);
        ByteSequence k = key(key);
        Outcome o = commit(() -> kv.txn().If(new Cmp(k, Cmp.Op.EQUAL, CmpTarget.version(0)))
                .Then(Op.put(k, ByteSequence.from(value), PutOption.DEFAULT)).commit(), key);
        if (!o.response().isSucceeded()) {
            Optional<KeyValue> current = o.retried() ? get(key) : Optional.empty();
            if (current.isPresent() && Arrays.equals(current.get().value(), value)) {
                return new KeyValue(key, value, current.get().createRevision(), current.get().modRevision());
            }
            throw new StorageException.KeyExists(key);
        }
        long revision = o.response().getHeader().getRevision();
        return new KeyValue(key, value, revision, revision);
    }

    @Override
    public Optional<KeyValue> get(String key) {
        ByteSequence k = key(key);
        GetResponse r = read(() -> kv.get(k), key, 0);
        return r.getKvs().stream().findFirst().map(this::kapi);
    }

    @Override
    public RangeResult range(String prefix, String startKey, int limit, long revision) {
        if (limit < 0) {
            throw new IllegalArgumentException("negative limit " + limit);
        }
        String etcdPrefix = layout.etcdPrefix(prefix);
        String from = startKey == null || startKey.compareTo(prefix) <= 0 || !startKey.startsWith(KeyLayout.KAPI_ROOT + "/")
                ? etcdPrefix : max(etcdPrefix, layout.etcdKey(startKey));
        ByteSequence end = bytes(KeyLayout.prefixEnd(etcdPrefix));
        return new RangeReader(this, from, end, limit, revision).read();
    }

    /** One ranged read at {@code revision} (0: now), as etcd answers it. */
    GetResponse rangeOnce(String from, ByteSequence end, int limit, long revision) {
        GetOption.Builder option = GetOption.builder().withRange(end).withLimit(limit);
        if (revision > 0) {
            option.withRevision(revision);
        }
        GetOption get = option.build();
        return read(() -> kv.get(bytes(from), get), from, revision);
    }

    @Override
    public KeyValue update(String key, byte[] value, long expectedModRevision) {
        Mutation.checkSize(key, value);
        ByteSequence k = key(key);
        Outcome o = commit(() -> kv.txn()
                .If(new Cmp(k, Cmp.Op.GREATER, CmpTarget.version(0)),
                        new Cmp(k, Cmp.Op.EQUAL, CmpTarget.modRevision(expectedModRevision)))
                .Then(Op.put(k, ByteSequence.from(value), PutOption.builder().withPrevKV().build()))
                .Else(Op.get(k, GetOption.DEFAULT)).commit(), key);
        TxnResponse r = o.response();
        if (!r.isSucceeded()) {
            StorageException refused = refused(key, r);
            if (o.retried() && refused instanceof StorageException.Conflict c
                    && c.current().modRevision() > expectedModRevision && Arrays.equals(c.current().value(), value)) {
                return c.current(); // the attempt before the broken connection had landed
            }
            throw refused;
        }
        long created = r.getPutResponses().getFirst().getPrevKv().getCreateRevision();
        return new KeyValue(key, value, created, r.getHeader().getRevision());
    }

    @Override
    public KeyValue delete(String key, long expectedModRevision) {
        ByteSequence k = key(key);
        Cmp exists = new Cmp(k, Cmp.Op.GREATER, CmpTarget.version(0));
        Cmp[] conditions = expectedModRevision == 0 ? new Cmp[] {exists}
                : new Cmp[] {exists, new Cmp(k, Cmp.Op.EQUAL, CmpTarget.modRevision(expectedModRevision))};
        Outcome o = commit(() -> kv.txn().If(conditions)
                .Then(Op.delete(k, DeleteOption.builder().withPrevKV(true).build()))
                .Else(Op.get(k, GetOption.DEFAULT)).commit(), key);
        TxnResponse r = o.response();
        if (!r.isSucceeded() || r.getDeleteResponses().getFirst().getPrevKvs().isEmpty()) {
            StorageException refused = refused(key, r);
            if (o.retried()) {
                return landedDelete(key, expectedModRevision, refused);
            }
            throw refused;
        }
        return kapi(r.getDeleteResponses().getFirst().getPrevKvs().getFirst());
    }

    /**
     * A delete retried after a broken connection found the key gone or re-created: the first attempt
     * landed if the key was deleted after the expected revision; its value then is at that revision.
     * Without a precondition that cannot be told, so the outcome is reported unknown.
     */
    private KeyValue landedDelete(String key, long expectedModRevision, StorageException refused) {
        boolean gone = refused instanceof StorageException.KeyNotFound
                || refused instanceof StorageException.Conflict c && c.current().createRevision() > expectedModRevision;
        if (!gone || expectedModRevision == 0) {
            throw gone ? new StorageException.Unavailable("etcd connection broke during the delete of " + key
                    + "; it may have happened", null) : refused;
        }
        GetResponse then = read(() -> kv.get(bytes(layout.etcdKey(key)),
                        GetOption.builder().withRevision(expectedModRevision).build()),
                key, expectedModRevision);
        return then.getKvs().stream().map(this::kapi).filter(kv -> kv.modRevision() == expectedModRevision)
                .findFirst().orElseThrow(() -> refused);
    }

    @Override
    public Watch watch(String prefix, long fromRevision, Consumer<WatchEvent> listener) {
        String etcdPrefix = layout.etcdPrefix(prefix);
        long now = currentRevision();
        long from = fromRevision == 0 ? now : fromRevision;
        if (from < now) {
            rangeOnce(layout.healthKey(), bytes(layout.healthKey() + "\0"), 1, from); // Compacted if history is gone
        }
        EtcdWatch watch = new EtcdWatch(this, etcdPrefix, from, now, listener, options.watchQueueCapacity());
        watches.add(watch);
        if (closed) {
            watch.fail(new StorageException.Unavailable("storage closed", null));
        }
        watch.start();
        return watch;
    }

    @Override
    public void compact(long revision) {
        long target = Math.min(revision, currentRevision());
        if (target <= compacted.get()) {
            return;
        }
        try {
            calls.await(kv.compact(target), "", target);
        } catch (StorageException.Compacted alreadyFurther) {
            LOG.log(Level.DEBUG, "etcd was compacted beyond {0} already", target);
        }
        compacted(target);
    }

    @Override
    public long compactedRevision() {
        return compacted.get();
    }

    /** Records that history up to {@code revision} is known to be compacted. */
    void compacted(long revision) {
        compacted.accumulateAndGet(revision, Math::max);
    }

    @Override
    public boolean healthy() {
        if (closed) {
            return false;
        }
        try {
            healthCalls.await(kv.get(bytes(layout.healthKey()), COUNT_ONLY), layout.healthKey(), 0);
            if (!lastHealthy) {
                LOG.log(Level.INFO, "etcd is healthy again");
            }
            lastHealthy = true;
            return true;
        } catch (StorageException e) {
            LOG.log(lastHealthy ? Level.WARNING : Level.DEBUG, "etcd health check failed: {0}", e.getMessage());
            lastHealthy = false;
            return false;
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        compactor.close();
        for (EtcdWatch watch : List.copyOf(watches)) {
            watch.fail(new StorageException.Unavailable("storage closed", null));
        }
        client.close();
    }

    // ---- used by EtcdWatch and RangeReader ----

    io.etcd.jetcd.Watch watchClient() {
        return client.getWatchClient();
    }

    KeyLayout layout() {
        return layout;
    }

    /** Writes a progress fence without waiting; the future gives the fence's revision. */
    CompletableFuture<Long> writeFence(String fence) {
        return kv.put(bytes(fence), ByteSequence.EMPTY).thenApply(r -> r.getHeader().getRevision());
    }

    void forget(EtcdWatch watch) {
        watches.remove(watch);
    }

    boolean closed() {
        return closed;
    }

    KeyValue kapi(io.etcd.jetcd.KeyValue kv) {
        return new KeyValue(layout.kapiKey(kv.getKey()), kv.getValue().getBytes(), kv.getCreateRevision(),
                kv.getModRevision());
    }

    // ---- helpers ----

    private ByteSequence key(String kapiKey) {
        open();
        return bytes(layout.etcdKey(kapiKey));
    }

    /** A guarded write's answer; {@code retried}: an earlier attempt failed with its outcome unknown. */
    private record Outcome(TxnResponse response, boolean retried) {
    }

    /**
     * Commits a guarded write, trying again (at most twice) when the connection broke: the guard
     * (version, mod revision) makes a second attempt safe, and the callers tell from the refusal
     * whether the first had landed, so that a member stopping does not fail a client's write.
     */
    private Outcome commit(Supplier<CompletableFuture<TxnResponse>> txn, String key) {
        for (int attempt = 1; ; attempt++) {
            try {
                return new Outcome(calls.await(txn.get(), key, 0), attempt > 1);
            } catch (StorageException.Unavailable e) {
                if (attempt == 3 || closed || !EtcdCalls.retryable(e)) {
                    throw e;
                }
                LOG.log(Level.DEBUG, "etcd write of {0} failed ({1}); trying again", key, e.getMessage());
                try {
                    Thread.sleep(100L * attempt);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    private GetResponse read(Supplier<CompletableFuture<GetResponse>> get, String key, long revision) {
        open();
        try {
            return idempotent(() -> calls.await(get.get(), key, revision), key);
        } catch (StorageException.Compacted e) {
            throw new StorageException.Compacted(revision, Math.max(compacted.get(), compactor.knownCompacted()));
        }
    }

    /**
     * Runs a read again (at most twice) when its connection broke, as etcd's own client does for
     * idempotent calls: with a member stopping, another one answers.
     */
    private <T> T idempotent(Supplier<T> call, String key) {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.get();
            } catch (StorageException.Unavailable e) {
                if (attempt == 3 || closed || !EtcdCalls.retryable(e)) {
                    throw e;
                }
                LOG.log(Level.DEBUG, "etcd read of {0} failed ({1}); trying again", key, e.getMessage());
                try {
                    Thread.sleep(100L * attempt);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /** Why a guarded write's condition failed: the key is missing, or it has another revision. */
    private StorageException refused(String key, TxnResponse r) {
        List<io.etcd.jetcd.KeyValue> current = r.getGetResponses().isEmpty() ? List.of()
                : r.getGetResponses().getFirst().getKvs();
        if (current.isEmpty()) {
            return new StorageException.KeyNotFound(key);
        }
        return new StorageException.Conflict(key, kapi(current.getFirst()));
    }

    private void open() {
        if (closed) {
            throw new StorageException.Unavailable("storage closed", null);
        }
    }

    private static String max(String a, String b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}

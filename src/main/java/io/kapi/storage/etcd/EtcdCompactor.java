package io.kapi.storage.etcd;

import static io.kapi.storage.etcd.KeyLayout.bytes;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.kapi.storage.StorageException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.LongConsumer;

/**
 * kube-apiserver's etcd compactor, so that Kapi and kube-apiserver replicas sharing an etcd compact
 * it once per interval between them. The key {@code compact_rev_key} (at etcd's root, as kube keeps
 * it) holds the last compacted revision; its version is a logical clock. Every interval each server
 * compares the version it last saw with the stored one: if equal, it bumps the key (compare-and-swap)
 * and compacts to the revision it sampled one interval earlier, so history of at least one interval
 * stays; if not, another server did it, and it only takes over the clock and a new sample. A server
 * that dies is replaced by whichever comes next: intervals stay between one and two periods.
 */
final class EtcdCompactor implements AutoCloseable {

    static final String KEY = "compact_rev_key";
    private static final System.Logger LOG = System.getLogger(EtcdCompactor.class.getName());

    private final KV kv;
    private final EtcdCalls calls;
    private final LongConsumer compacted;
    private final Thread thread;
    private long clock;
    private long sampled;
    private volatile long known;

    /** Starts compacting every {@code interval}; zero or negative never does. */
    EtcdCompactor(KV kv, EtcdCalls calls, Duration interval, LongConsumer compacted) {
        this.kv = kv;
        this.calls = calls;
        this.compacted = compacted;
        this.thread = interval.isZero() || interval.isNegative() ? null
                : Thread.ofVirtual().name("kapi-etcd-compactor").start(() -> loop(interval));
    }

    /** The compacted revision another server recorded in {@code compact_rev_key}, as last read (0 if unknown). */
    long knownCompacted() {
        return known;
    }

    private void loop(Duration interval) {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Thread.sleep(interval);
                step();
            } catch (InterruptedException e) {
                return;
            } catch (StorageException e) {
                LOG.log(Level.WARNING, "etcd compaction failed: {0}", e.getMessage());
            }
        }
    }

    /** One round of the protocol. */
    void step() {
        ByteSequence key = bytes(KEY);
        TxnResponse r = calls.await(kv.txn()
                .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.version(clock)))
                .Then(Op.put(key, bytes(Long.toString(sampled)), PutOption.DEFAULT))
                .Else(Op.get(key, GetOption.DEFAULT)).commit(), KEY, 0);
        long now = r.getHeader().getRevision();
        if (!r.isSucceeded()) {
            var current = r.getGetResponses().getFirst().getKvs().getFirst();
            clock = current.getVersion();
            known = parse(current.getValue());
            sampled = now;
            return;
        }
        clock++;
        long target = sampled;
        sampled = now;
        if (target == 0) {
            return; // the first round only samples, as kube's
        }
        try {
            calls.await(kv.compact(target), KEY, target);
            LOG.log(Level.DEBUG, "etcd: compacted to revision {0}", target);
        } catch (StorageException.Compacted alreadyFurther) {
            LOG.log(Level.DEBUG, "etcd was already compacted beyond {0}", target);
        }
        known = target;
        compacted.accept(target);
    }

    private static long parse(ByteSequence value) {
        try {
            return Long.parseLong(value.toString(StandardCharsets.UTF_8).trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    @Override
    public void close() {
        if (thread != null) {
            thread.interrupt();
        }
    }
}

package io.kapi.apis.services;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.storage.KeyValue;
import io.kapi.storage.Storage;
import io.kapi.storage.StorageException;
import java.io.IOException;
import java.util.Base64;
import java.util.BitSet;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.UnaryOperator;

/**
 * Node ports, as kube-apiserver's port allocator: a bitmap of the range kept in one storage key
 * ({@code /registry/ranges/servicenodeports}, where kube keeps its RangeAllocation) and changed only by
 * compare-and-swap on its revision, retried on conflict. One key makes every allocation, from any
 * number of threads or Kapi replicas sharing the storage, see every other one — a JVM lock over the
 * services would not survive a second replica.
 *
 * <p>Dynamic allocation takes a random free port of the upper band first, then of the lower band
 * (size/32 ports, 16–128), which is left to statically requested ports.
 */
final class NodePortAllocator {

    static final String KEY = "/registry/ranges/servicenodeports";

    private final PortRange range;
    private final Storage storage;

    NodePortAllocator(PortRange range, Storage storage) {
        this.range = range;
        this.storage = storage;
    }

    PortRange range() {
        return range;
    }

    /**
     * Allocates {@code port}.
     *
     * @throws AllocationException outside the range, or already allocated
     */
    void allocate(int port, boolean dryRun) {
        if (!range.contains(port)) {
            throw new AllocationException("provided port is not in the valid range. The range of valid ports is " + range);
        }
        change(bits -> {
            if (bits.get(port - range.base())) {
                throw new AllocationException("provided port is already allocated");
            }
            bits.set(port - range.base());
            return bits;
        }, dryRun);
    }

    /**
     * Allocates a free port.
     *
     * @throws AllocationException when the range is full
     */
    int allocateNext(boolean dryRun) {
        int[] chosen = new int[1];
        change(bits -> {
            int offset = range.offset();
            int index = pick(bits, offset, range.size());
            if (index < 0) {
                index = pick(bits, 0, offset);
            }
            if (index < 0) {
                throw AllocationException.full();
            }
            bits.set(index);
            chosen[0] = range.base() + index;
            return bits;
        }, dryRun);
        return chosen[0];
    }

    /** Releases ports; free or out-of-range ones are ignored. */
    void release(Collection<Integer> ports) {
        if (ports.stream().noneMatch(range::contains)) {
            return;
        }
        change(bits -> {
            ports.stream().filter(range::contains).forEach(p -> bits.clear(p - range.base()));
            return bits;
        }, false);
    }

    /** The allocated ports and the revision they were read at (0 when nothing was stored yet). */
    Snapshot snapshot() {
        Optional<KeyValue> current = storage.get(KEY);
        return new Snapshot(current.map(this::decode).orElseGet(BitSet::new), current.map(KeyValue::modRevision).orElse(0L));
    }

    /**
     * Replaces the bitmap read at {@code snapshot} with {@code ports}; false when it changed since
     * (the repair then tries again on its next pass).
     */
    boolean replace(Snapshot snapshot, Collection<Integer> ports) {
        BitSet bits = new BitSet(range.size());
        ports.stream().filter(range::contains).forEach(p -> bits.set(p - range.base()));
        try {
            if (snapshot.revision() == 0) {
                storage.create(KEY, encode(bits));
            } else {
                storage.update(KEY, encode(bits), snapshot.revision());
            }
            return true;
        } catch (StorageException.KeyExists | StorageException.Conflict | StorageException.KeyNotFound e) {
            return false;
        }
    }

    /** A read of the bitmap: bit i is port base+i. */
    record Snapshot(BitSet bits, long revision) {
    }

    private static int pick(BitSet bits, int from, int to) {
        int count = to - from;
        if (count <= 0) {
            return -1;
        }
        int start = from + ThreadLocalRandom.current().nextInt(count);
        int free = bits.nextClearBit(start);
        if (free < to) {
            return free;
        }
        free = bits.nextClearBit(from);
        return free < start ? free : -1;
    }

    /** Applies {@code change} to the current bitmap with compare-and-swap, retrying on conflict. */
    private void change(UnaryOperator<BitSet> change, boolean dryRun) {
        while (true) {
            Optional<KeyValue> current = storage.get(KEY);
            BitSet bits = current.map(this::decode).orElseGet(() -> new BitSet(range.size()));
            byte[] value = encode(change.apply(bits));
            if (dryRun) {
                return;
            }
            try {
                if (current.isEmpty()) {
                    storage.create(KEY, value);
                } else {
                    storage.update(KEY, value, current.get().modRevision());
                }
                return;
            } catch (StorageException.KeyExists | StorageException.Conflict | StorageException.KeyNotFound e) {
                Thread.onSpinWait();
            }
        }
    }

    /** The stored bitmap; one stored for another range counts as empty until the repair rebuilds it. */
    private BitSet decode(KeyValue kv) {
        try {
            JsonNode node = Json.MAPPER.readTree(kv.value());
            if (!node.path("range").asText().equals(range.toString())) {
                return new BitSet(range.size());
            }
            return BitSet.valueOf(Base64.getDecoder().decode(node.path("data").asText("")));
        } catch (IOException | IllegalArgumentException e) {
            return new BitSet(range.size());
        }
    }

    private byte[] encode(BitSet bits) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("range", range.toString());
        node.put("data", Base64.getEncoder().encodeToString(bits.toByteArray()));
        try {
            return Json.MAPPER.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}

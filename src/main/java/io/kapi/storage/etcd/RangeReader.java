package io.kapi.storage.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.kapi.storage.RangeResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@link io.kapi.storage.Storage#range} on etcd: a page of at most {@code limit} keys, read at one
 * revision, without the progress fences a range over a parent prefix would otherwise include (when it
 * meets one, it reads on to fill the page; {@code remaining} is etcd's count, so it may include fences
 * further on, an estimate as kube's {@code remainingItemCount} is).
 */
final class RangeReader {

    private final EtcdStorage storage;
    private final ByteSequence end;
    private final int limit;
    private String from;
    private long revision;

    RangeReader(EtcdStorage storage, String from, ByteSequence end, int limit, long revision) {
        this.storage = storage;
        this.from = from;
        this.end = end;
        this.limit = limit;
        this.revision = revision;
    }

    RangeResult read() {
        List<io.kapi.storage.KeyValue> items = new ArrayList<>();
        while (true) {
            int want = limit == 0 ? 0 : limit - items.size();
            GetResponse page = storage.rangeOnce(from, end, want, revision);
            revision = page.getHeader().getRevision() > 0 && revision == 0 ? page.getHeader().getRevision() : revision;
            int fences = 0;
            for (KeyValue kv : page.getKvs()) {
                if (KeyLayout.isFence(kv.getKey().toString(StandardCharsets.UTF_8))) {
                    fences++;
                } else {
                    items.add(storage.kapi(kv));
                }
            }
            long after = page.getCount() - page.getKvs().size();
            if (fences == 0 || !page.isMore() || page.getKvs().isEmpty()) {
                return new RangeResult(List.copyOf(items), page.isMore(), page.isMore() ? after : 0, revision);
            }
            from = page.getKvs().getLast().getKey().toString(StandardCharsets.UTF_8) + "\0";
        }
    }
}

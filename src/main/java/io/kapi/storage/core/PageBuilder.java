package io.kapi.storage.core;

import io.kapi.storage.KeyValue;
import io.kapi.storage.RangeResult;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects the keys visible at one revision, fed in ascending key order, into a page of at most
 * {@code limit} items, counting the keys after the page.
 */
public final class PageBuilder {
    private final int limit;
    private final List<KeyValue> items = new ArrayList<>();
    private long remaining;

    public PageBuilder(int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("negative limit " + limit);
        }
        this.limit = limit;
    }

    public void accept(KeyValue kv) {
        if (limit == 0 || items.size() < limit) {
            items.add(kv);
        } else {
            remaining++;
        }
    }

    /** Whether the next key goes into the page (false: it is only counted). */
    public boolean wantsMore() {
        return limit == 0 || items.size() < limit;
    }

    /** Counts a key after the page without materialising it; only when {@link #wantsMore()} is false. */
    public void skip() {
        remaining++;
    }

    public RangeResult build(long revision) {
        return new RangeResult(List.copyOf(items), remaining > 0, remaining, revision);
    }

    /** Where a range starts: the later of {@code prefix} and {@code startKey}. */
    public static String firstKey(String prefix, String startKey) {
        return startKey == null || startKey.compareTo(prefix) < 0 ? prefix : startKey;
    }
}

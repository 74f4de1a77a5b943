package io.kapi.storage;

import java.util.List;

/**
 * A page of a prefix range.
 *
 * @param items the keys in ascending byte order of their key
 * @param more whether keys after the last item exist in the prefix at {@code revision}
 * @param remaining how many keys in the prefix follow the last item at {@code revision}
 * @param revision the revision the range was read at; pass it back to read the next page consistently
 */
public record RangeResult(List<KeyValue> items, boolean more, long remaining, long revision) {
}

package io.kapi.machinery.tree;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * The fields of one JSON object, in insertion order, kept in a single array of alternating keys and
 * values while they are few, the way most of a Kubernetes object's maps are (metadata, a label set, a
 * managed-fields entry: one to a dozen keys). A {@link LinkedHashMap} spends about 170 bytes on an
 * object before its first field and 40 per field; this spends 40 and 8. Past {@link #MAX_INLINE}
 * fields the map moves into a {@code LinkedHashMap}, so lookups stay constant-time for large maps
 * (a ConfigMap's data, a hostile body's ten thousand keys).
 *
 * <p>A complete, mutable {@link Map} (iteration order, iterator and entry write-through, equality and
 * hash codes as any map's); not thread-safe, like {@code LinkedHashMap}.
 */
public final class CompactFields extends AbstractMap<String, JsonNode> {

    /** How many fields are kept inline; a linear scan of this many interned keys is as fast as hashing. */
    static final int MAX_INLINE = 12;

    /** {@code key0, value0, key1, value1, ...}; null once {@link #large} holds the fields. */
    private Object[] slots;
    private int size;
    private LinkedHashMap<String, JsonNode> large;

    public CompactFields() {
        this.slots = new Object[4];
    }

    @Override
    public int size() {
        return large != null ? large.size() : size;
    }

    @Override
    public boolean isEmpty() {
        return size() == 0;
    }

    @Override
    public boolean containsKey(Object key) {
        return large != null ? large.containsKey(key) : indexOf(key) >= 0;
    }

    @Override
    public JsonNode get(Object key) {
        if (large != null) {
            return large.get(key);
        }
        int i = indexOf(key);
        return i < 0 ? null : (JsonNode) slots[i + 1];
    }

    @Override
    public JsonNode put(String key, JsonNode value) {
        if (large != null) {
            return large.put(key, value);
        }
        int i = indexOf(key);
        if (i >= 0) {
            JsonNode old = (JsonNode) slots[i + 1];
            slots[i + 1] = value;
            return old;
        }
        if (size == MAX_INLINE) {
            large = new LinkedHashMap<>();
            for (int j = 0; j < 2 * size; j += 2) {
                large.put((String) slots[j], (JsonNode) slots[j + 1]);
            }
            slots = null;
            size = 0;
            return large.put(key, value);
        }
        if (2 * size == slots.length) {
            slots = Arrays.copyOf(slots, slots.length + Math.max(4, slots.length / 2 & ~1));
        }
        slots[2 * size] = key;
        slots[2 * size + 1] = value;
        size++;
        return null;
    }

    @Override
    public JsonNode remove(Object key) {
        if (large != null) {
            return large.remove(key);
        }
        int i = indexOf(key);
        if (i < 0) {
            return null;
        }
        JsonNode old = (JsonNode) slots[i + 1];
        removeAt(i);
        return old;
    }

    @Override
    public void clear() {
        large = null;
        slots = new Object[4];
        size = 0;
    }

    /**
     * How many fields are inline, readable by index with {@link #keyAt} and {@link #valueAt} (a walk that
     * allocates nothing per field); -1 once a {@code LinkedHashMap} holds them (iterate {@link #entrySet}).
     */
    public int inlineSize() {
        return large != null ? -1 : size;
    }

    /** The key of the inline field at {@code index} (in insertion order, below {@link #inlineSize}). */
    public String keyAt(int index) {
        return (String) slots[2 * index];
    }

    /** The value of the inline field at {@code index} (in insertion order, below {@link #inlineSize}). */
    public JsonNode valueAt(int index) {
        return (JsonNode) slots[2 * index + 1];
    }

    @Override
    public Set<Entry<String, JsonNode>> entrySet() {
        return large != null ? large.entrySet() : new Entries();
    }

    private int indexOf(Object key) {
        Object[] s = slots;
        for (int i = 0, end = 2 * size; i < end; i += 2) {
            if (s[i] == key) {
                return i;
            }
        }
        if (key != null) {
            for (int i = 0, end = 2 * size; i < end; i += 2) {
                if (key.equals(s[i])) {
                    return i;
                }
            }
        }
        return -1;
    }

    private void removeAt(int i) {
        int end = 2 * size;
        System.arraycopy(slots, i + 2, slots, i, end - i - 2);
        slots[end - 2] = null;
        slots[end - 1] = null;
        size--;
    }

    /** The inline fields as entries; valid while the map stays inline (as an iterator is while unmodified). */
    private final class Entries extends AbstractSet<Entry<String, JsonNode>> {

        @Override
        public int size() {
            return CompactFields.this.size();
        }

        @Override
        public Iterator<Entry<String, JsonNode>> iterator() {
            return new Iterator<>() {
                private int next;
                private int last = -1;

                @Override
                public boolean hasNext() {
                    return large == null && next < 2 * size;
                }

                @Override
                public Entry<String, JsonNode> next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    last = next;
                    next += 2;
                    return new Field(last);
                }

                @Override
                public void remove() {
                    if (last < 0 || large != null) {
                        throw new IllegalStateException();
                    }
                    removeAt(last);
                    next = last;
                    last = -1;
                }
            };
        }
    }

    /** One inline field; {@link #setValue} writes through while the field is where it was. */
    private final class Field implements Entry<String, JsonNode> {
        private final String key;
        private JsonNode value;
        private final int index;

        Field(int index) {
            this.index = index;
            this.key = (String) slots[index];
            this.value = (JsonNode) slots[index + 1];
        }

        @Override
        public String getKey() {
            return key;
        }

        @Override
        public JsonNode getValue() {
            return value;
        }

        @Override
        public JsonNode setValue(JsonNode v) {
            JsonNode old = value;
            if (large != null) {
                large.put(key, v);
            } else if (index < 2 * size && slots[index] == key) {
                slots[index + 1] = v;
            } else {
                put(key, v);
            }
            value = v;
            return old;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Entry<?, ?> e && key.equals(e.getKey()) && java.util.Objects.equals(value, e.getValue());
        }

        @Override
        public int hashCode() {
            return key.hashCode() ^ (value == null ? 0 : value.hashCode());
        }

        @Override
        public String toString() {
            return key + "=" + value;
        }
    }
}

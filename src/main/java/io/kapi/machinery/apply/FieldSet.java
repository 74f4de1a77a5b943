package io.kapi.machinery.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * An immutable set of field paths, shaped as structured-merge-diff's {@code fieldpath.Set}: the
 * members of one level (paths that end here) and, per element, the set of paths below it. A path can
 * be both a member and a prefix of others (a list item owned as a whole and through its fields),
 * which {@code fieldsV1} writes as {@code ".": {}}.
 *
 * <p>Children are never empty sets; an empty set has no members and no children.
 */
final class FieldSet {

    static final FieldSet EMPTY = new FieldSet(new TreeSet<>(), new TreeMap<>());

    /**
     * Parsed fieldsV1 keys: objects are decoded on every request from their stored managedFields,
     * and the same few hundred keys come back each time. Cleared when it grows past its bound.
     */
    private static final java.util.concurrent.ConcurrentHashMap<String, PathElement> KEYS =
            new java.util.concurrent.ConcurrentHashMap<>() {
                @Override
                public PathElement computeIfAbsent(String key,
                        java.util.function.Function<? super String, ? extends PathElement> f) {
                    if (size() > 50_000) {
                        clear();
                    }
                    return super.computeIfAbsent(key, f);
                }
            };

    private final NavigableSet<PathElement> members;
    private final NavigableMap<PathElement, FieldSet> children;
    /** The fieldsV1 rendering, once computed or read; never handed out, only copies. */
    private volatile ObjectNode encoded;

    private FieldSet(NavigableSet<PathElement> members, NavigableMap<PathElement, FieldSet> children) {
        this.members = members;
        this.children = children;
    }

    NavigableSet<PathElement> members() {
        return Collections.unmodifiableNavigableSet(members);
    }

    NavigableMap<PathElement, FieldSet> children() {
        return Collections.unmodifiableNavigableMap(children);
    }

    boolean isEmpty() {
        return members.isEmpty() && children.isEmpty();
    }

    /** The paths below {@code pe}, relative to it. */
    FieldSet withPrefix(PathElement pe) {
        FieldSet c = children.get(pe);
        return c == null ? EMPTY : c;
    }

    boolean has(List<PathElement> path) {
        FieldSet s = this;
        for (int i = 0; i < path.size() - 1; i++) {
            s = s.children.get(path.get(i));
            if (s == null) {
                return false;
            }
        }
        return !path.isEmpty() && s.members.contains(path.getLast());
    }

    /** Whether every path of this set is in {@code o}. */
    boolean isSubsetOf(FieldSet o) {
        if (this == o || isEmpty()) {
            return true;
        }
        if (!o.members.containsAll(members)) {
            return false;
        }
        for (Map.Entry<PathElement, FieldSet> e : children.entrySet()) {
            FieldSet other = o.children.get(e.getKey());
            if (other == null || !e.getValue().isSubsetOf(other)) {
                return false;
            }
        }
        return true;
    }

    FieldSet union(FieldSet o) {
        if (o.isEmpty()) {
            return this;
        }
        if (isEmpty()) {
            return o;
        }
        TreeSet<PathElement> m = new TreeSet<>(members);
        m.addAll(o.members);
        TreeMap<PathElement, FieldSet> c = new TreeMap<>(children);
        o.children.forEach((pe, s) -> c.merge(pe, s, FieldSet::union));
        return new FieldSet(m, c);
    }

    FieldSet intersection(FieldSet o) {
        if (isEmpty() || o.isEmpty()) {
            return EMPTY;
        }
        TreeSet<PathElement> m = new TreeSet<>(members);
        m.retainAll(o.members);
        TreeMap<PathElement, FieldSet> c = new TreeMap<>();
        children.forEach((pe, s) -> {
            FieldSet other = o.children.get(pe);
            if (other != null) {
                FieldSet i = s.intersection(other);
                if (!i.isEmpty()) {
                    c.put(pe, i);
                }
            }
        });
        return new FieldSet(m, c);
    }

    /** The paths of this set not in {@code o} (exact paths: descendants of a path in {@code o} stay). */
    FieldSet difference(FieldSet o) {
        if (isEmpty() || o.isEmpty()) {
            return this;
        }
        TreeSet<PathElement> m = new TreeSet<>(members);
        m.removeAll(o.members);
        TreeMap<PathElement, FieldSet> c = new TreeMap<>();
        children.forEach((pe, s) -> {
            FieldSet other = o.children.get(pe);
            FieldSet d = other == null ? s : s.difference(other);
            if (!d.isEmpty()) {
                c.put(pe, d);
            }
        });
        return new FieldSet(m, c);
    }

    /** The paths of this set neither in {@code o} nor below a member of {@code o}. */
    FieldSet recursiveDifference(FieldSet o) {
        if (isEmpty() || o.isEmpty()) {
            return this;
        }
        TreeSet<PathElement> m = new TreeSet<>(members);
        m.removeAll(o.members);
        TreeMap<PathElement, FieldSet> c = new TreeMap<>();
        children.forEach((pe, s) -> {
            if (o.members.contains(pe)) {
                return;
            }
            FieldSet other = o.children.get(pe);
            FieldSet d = other == null ? s : s.recursiveDifference(other);
            if (!d.isEmpty()) {
                c.put(pe, d);
            }
        });
        return new FieldSet(m, c);
    }

    /**
     * This set plus every named field of a struct that has paths below it (structured-merge-diff's
     * {@code EnsureNamedFieldsAreMembers}); map keys and list items are not added.
     */
    FieldSet ensureNamedFieldsAreMembers(SchemaType type) {
        if (children.isEmpty()) {
            return this;
        }
        TreeSet<PathElement> m = new TreeSet<>(members);
        TreeMap<PathElement, FieldSet> c = new TreeMap<>();
        children.forEach((pe, s) -> {
            SchemaType childType = SchemaType.UNTYPED;
            if (pe instanceof PathElement.Field f && type instanceof SchemaType.MapType mt) {
                SchemaType declared = mt.field(f.name());
                if (declared != null) {
                    m.add(pe);
                    childType = declared;
                } else if (mt.elementType() != null) {
                    childType = mt.elementType();
                }
            } else if (type instanceof SchemaType.ListType lt) {
                childType = lt.elementType();
            } else if (type == SchemaType.UNTYPED) {
                childType = SchemaType.UNTYPED;
            }
            c.put(pe, s.ensureNamedFieldsAreMembers(childType));
        });
        return new FieldSet(m, c);
    }

    /** Visits every path, members of a level before the paths below it, each level in order. */
    void forEachPath(Consumer<List<PathElement>> visitor) {
        forEachPath(new ArrayList<>(), visitor);
    }

    private void forEachPath(List<PathElement> prefix, Consumer<List<PathElement>> visitor) {
        for (PathElement pe : members) {
            prefix.add(pe);
            visitor.accept(List.copyOf(prefix));
            prefix.removeLast();
        }
        for (Map.Entry<PathElement, FieldSet> e : children.entrySet()) {
            prefix.add(e.getKey());
            e.getValue().forEachPath(prefix, visitor);
            prefix.removeLast();
        }
    }

    int size() {
        int[] n = {0};
        forEachPath(p -> n[0]++);
        return n[0];
    }

    /**
     * Writes this set as kube's {@code fieldsV1} object (a fresh tree each call). A set read from
     * fieldsV1 writes back what it was read from, as kube keeps an unchanged entry's bytes.
     */
    ObjectNode toFieldsV1() {
        ObjectNode memo = encoded;
        if (memo == null) {
            memo = Json.object();
            emit(memo, false);
            encoded = memo;
        }
        return memo.deepCopy();
    }

    private void emit(ObjectNode out, boolean includeSelf) {
        if (includeSelf && !isEmpty()) {
            out.putObject(".");
        }
        // merge the two sorted sequences: a member that is also a prefix is written once, with "."
        var mi = members.iterator();
        var ci = children.entrySet().iterator();
        PathElement m = mi.hasNext() ? mi.next() : null;
        Map.Entry<PathElement, FieldSet> c = ci.hasNext() ? ci.next() : null;
        while (m != null || c != null) {
            int cmp = m == null ? 1 : c == null ? -1 : m.compareTo(c.getKey());
            if (cmp < 0) {
                out.putObject(m.fieldsV1Key());
                m = mi.hasNext() ? mi.next() : null;
            } else {
                ObjectNode child = out.putObject(c.getKey().fieldsV1Key());
                c.getValue().emit(child, cmp == 0);
                if (cmp == 0) {
                    m = mi.hasNext() ? mi.next() : null;
                }
                c = ci.hasNext() ? ci.next() : null;
            }
        }
    }

    /**
     * Reads a {@code fieldsV1} object.
     *
     * @throws IllegalArgumentException if it is not a well-formed field set
     */
    static FieldSet fromFieldsV1(JsonNode node) {
        if (!(node instanceof ObjectNode obj)) {
            throw new IllegalArgumentException("fieldsV1 must be an object");
        }
        Builder b = new Builder();
        read(obj, b);
        FieldSet set = b.build();
        if (set != EMPTY) {
            set.encoded = obj.deepCopy();
        }
        return set;
    }

    private static void read(ObjectNode obj, Builder into) {
        for (Map.Entry<String, JsonNode> e : obj.properties()) {
            if (e.getKey().equals(".")) {
                continue;
            }
            if (!(e.getValue() instanceof ObjectNode child)) {
                throw new IllegalArgumentException("fieldsV1 values must be objects");
            }
            PathElement pe = KEYS.computeIfAbsent(e.getKey(), PathElement::parseFieldsV1Key);
            if (child.isEmpty() || child.has(".")) {
                into.members.add(pe);
            }
            if (!child.isEmpty()) {
                Builder sub = into.child(pe);
                read(child, sub);
            }
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FieldSet s && members.equals(s.members) && children.equals(s.children);
    }

    @Override
    public int hashCode() {
        return members.hashCode() * 31 + children.hashCode();
    }

    @Override
    public String toString() {
        List<String> paths = new ArrayList<>();
        forEachPath(p -> paths.add(pathString(p)));
        return paths.toString();
    }

    static String pathString(List<PathElement> path) {
        StringBuilder b = new StringBuilder();
        for (PathElement pe : path) {
            b.append(pe.pathString());
        }
        return b.toString();
    }

    /** A mutable set under construction. */
    static final class Builder {
        private final TreeSet<PathElement> members = new TreeSet<>();
        private final TreeMap<PathElement, Builder> children = new TreeMap<>();

        Builder child(PathElement pe) {
            return children.computeIfAbsent(pe, k -> new Builder());
        }

        void member(PathElement pe) {
            members.add(pe);
        }

        void insert(List<PathElement> path) {
            if (path.isEmpty()) {
                return;
            }
            Builder b = this;
            for (int i = 0; i < path.size() - 1; i++) {
                b = b.child(path.get(i));
            }
            b.members.add(path.getLast());
        }

        /** The set built; the builder must not be used afterwards. */
        FieldSet build() {
            TreeMap<PathElement, FieldSet> c = new TreeMap<>();
            children.forEach((pe, b) -> {
                FieldSet s = b.build();
                if (!s.isEmpty()) {
                    c.put(pe, s);
                }
            });
            if (members.isEmpty() && c.isEmpty()) {
                return EMPTY;
            }
            return new FieldSet(members, c); // the builder is spent: its member set is handed over
        }
    }
}

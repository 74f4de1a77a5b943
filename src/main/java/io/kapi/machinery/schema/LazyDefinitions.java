package io.kapi.machinery.schema;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Definitions by name, in their file's order, each kept as its JSON text until first asked for and
 * parsed then (once). A server uses the definitions of the kinds it serves objects of, a fraction of
 * the ~600 built-in ones, so a start parses that fraction, and the rest cost their bytes. The
 * group-version-kind of each top-level kind is known without parsing: the build wrote it beside the
 * JSON ({@link #write}). Read-only.
 */
final class LazyDefinitions extends AbstractMap<String, ObjectNode> {

    /** One definition: its kind (null unless a top-level kind), its JSON until parsed, then its tree. */
    static final class Definition {
        final GroupVersionKind kind;
        private byte[] json;
        private ObjectNode tree;

        private Definition(GroupVersionKind kind, byte[] json, ObjectNode tree) {
            this.kind = kind;
            this.json = json;
            this.tree = tree;
        }

        static Definition parsed(String name, ObjectNode tree) {
            GroupVersionKind kind = Schemas.isTopLevel(tree) ? Schemas.gvkOf(name, tree).orElse(null) : null;
            return new Definition(kind, null, tree);
        }

        synchronized boolean isParsed() {
            return tree != null;
        }

        synchronized ObjectNode tree() {
            if (tree == null) {
                try {
                    tree = (ObjectNode) Json.MAPPER.readTree(json);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot parse a built-in definition", e);
                }
                json = null;
            }
            return tree;
        }
    }

    private final Map<String, Definition> byName;

    LazyDefinitions(Map<String, Definition> byName) {
        this.byName = Collections.unmodifiableMap(new LinkedHashMap<>(byName));
    }

    Map<String, Definition> byName() {
        return byName;
    }

    /**
     * Reads what {@link #write} wrote: one definition a line, {@code name TAB group/version/Kind TAB json}
     * (the kind empty unless a top-level kind), split on bytes without a JSON tokenizer.
     */
    static Map<String, Definition> read(byte[] text) {
        Map<String, Definition> defs = new LinkedHashMap<>();
        int at = 0;
        while (at < text.length) {
            int end = indexOf(text, (byte) '\n', at, text.length);
            int nameEnd = indexOf(text, (byte) '\t', at, end);
            int kindEnd = indexOf(text, (byte) '\t', nameEnd + 1, end);
            if (kindEnd >= end) {
                throw new IllegalStateException("malformed precompiled definitions at byte " + at);
            }
            String name = new String(text, at, nameEnd - at, StandardCharsets.UTF_8);
            String kind = new String(text, nameEnd + 1, kindEnd - nameEnd - 1, StandardCharsets.UTF_8);
            defs.put(name, new Definition(kind.isEmpty() ? null : kindOf(kind), java.util.Arrays.copyOfRange(text, kindEnd + 1, end), null));
            at = end + 1;
        }
        return defs;
    }

    /** The lines {@link #read} reads, for parsed definitions (the build's step). */
    static String write(Map<String, ObjectNode> defs) throws IOException {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, ObjectNode> e : defs.entrySet()) {
            Definition d = Definition.parsed(e.getKey(), e.getValue());
            String kind = d.kind == null ? "" : d.kind.group() + "/" + d.kind.version() + "/" + d.kind.kind();
            // compact JSON escapes control characters, so a definition is one line without tabs
            out.append(e.getKey()).append('\t').append(kind).append('\t')
                    .append(Json.MAPPER.writeValueAsString(e.getValue())).append('\n');
        }
        return out.toString();
    }

    private static GroupVersionKind kindOf(String text) {
        String[] parts = text.split("/", 3);
        return new GroupVersionKind(parts[0], parts[1], parts[2]);
    }

    private static int indexOf(byte[] text, byte b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (text[i] == b) {
                return i;
            }
        }
        return to;
    }

    @Override
    public ObjectNode get(Object name) {
        Definition d = byName.get(name);
        return d == null ? null : d.tree();
    }

    @Override
    public boolean containsKey(Object name) {
        return byName.containsKey(name);
    }

    @Override
    public int size() {
        return byName.size();
    }

    @Override
    public Set<String> keySet() {
        return byName.keySet();
    }

    @Override
    public Set<Map.Entry<String, ObjectNode>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Map.Entry<String, ObjectNode>> iterator() {
                Iterator<Map.Entry<String, Definition>> it = byName.entrySet().iterator();
                return new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return it.hasNext();
                    }

                    @Override
                    public Map.Entry<String, ObjectNode> next() {
                        Map.Entry<String, Definition> e = it.next();
                        return Map.entry(e.getKey(), e.getValue().tree());
                    }
                };
            }

            @Override
            public int size() {
                return byName.size();
            }
        };
    }
}

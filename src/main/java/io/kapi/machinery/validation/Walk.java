package io.kapi.machinery.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GoJson;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.machinery.quantity.Quantity;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * One validation pass over one object: Go-decoding type checks (the first thrown at the end, or a custom
 * unmarshaller's at once, as Go does), pruning of unknown and null
 * fields (collected), required fields (collected). Tracks the path as a stack of segments: a field name
 * (with the Go struct that owns it), an array index, or a map key.
 */
final class Walk {

    private static final BigInteger INT64_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger INT64_MAX = BigInteger.valueOf(Long.MAX_VALUE);
    /**
     * Objects walked in this JVM, by kind: what a test counts to see that a write walks its object once (by
     * kind, as the server's own writes, such as its identity lease's renewal, walk theirs meanwhile).
     */
    static final java.util.Map<GroupVersionKind, java.util.concurrent.atomic.LongAdder> RUNS =
            new java.util.concurrent.ConcurrentHashMap<>();

    private final GroupVersionKind gvk;
    private final Shape root;
    /** False for a check of types alone: nothing pruned, collected or changed. */
    private final boolean full;
    final List<String> unknown = new ArrayList<>();
    final List<FieldError> errors = new ArrayList<>();

    private Object[] segments = new Object[16];
    private String[] owners = new String[16];
    private int depth;

    Walk(GroupVersionKind gvk, Shape root) {
        this(gvk, root, true);
    }

    Walk(GroupVersionKind gvk, Shape root, boolean full) {
        this.gvk = gvk;
        this.root = root;
        this.full = full;
    }

    /**
     * Go saves the first plain type error and decodes on, but returns a custom unmarshaller's error
     * (quantity, int-or-string, time) at once, so that one wins even when it comes later.
     */
    private ApiException saved;

    void run(ObjectNode obj) {
        RUNS.computeIfAbsent(gvk, k -> new java.util.concurrent.atomic.LongAdder()).increment();
        walk(obj, root);
        if (saved != null) {
            throw saved;
        }
    }

    private void save(ApiException e) {
        if (saved == null) {
            saved = e;
        }
    }

    private void walk(JsonNode node, Shape shape) {
        if (node.isNull()) {
            return;
        }
        switch (shape) {
            case Shape.Struct s -> struct(node, s);
            case Shape.MapOf m -> map(node, m);
            case Shape.ListOf l -> list(node, l);
            case Shape.Scalar sc -> scalar(node, sc);
        }
    }

    private void struct(JsonNode node, Shape.Struct s) {
        if (!(node instanceof ObjectNode obj)) {
            save(typeError(GoJson.kind(node), s.goType()));
            return;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = obj.properties().iterator(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            Shape field = s.fields.get(e.getKey());
            if (field == null) {
                if (!s.preserveUnknown && full) {
                    unknown.add(path(e.getKey()));
                    it.remove();
                }
            } else if (e.getValue().isNull()) {
                if (full) {
                    it.remove();
                }
            } else {
                push(e.getKey(), s.goName);
                walk(e.getValue(), field);
                depth--;
            }
        }
        if (full) {
            required(obj, s);
        }
    }

    private void map(JsonNode node, Shape.MapOf m) {
        if (!(node instanceof ObjectNode obj)) {
            save(typeError(GoJson.kind(node), m.goType()));
            return;
        }
        for (Map.Entry<String, JsonNode> e : obj.properties()) {
            if (e.getValue().isNull()) {
                if (full && m.values() == Shape.Scalar.STRING) {
                    e.setValue(Json.NODES.textNode(""));
                }
                continue;
            }
            push(new MapKey(e.getKey()), null);
            walk(e.getValue(), m.values());
            depth--;
        }
    }

    private void list(JsonNode node, Shape.ListOf l) {
        if (!(node instanceof ArrayNode arr)) {
            save(typeError(GoJson.kind(node), l.goType()));
            return;
        }
        for (int i = 0; i < arr.size(); i++) {
            JsonNode item = arr.get(i);
            if (item.isNull()) {
                if (!full) {
                    continue;
                }
                if (l.items() instanceof Shape.Struct) {
                    arr.set(i, Json.NODES.objectNode());
                } else if (l.items() == Shape.Scalar.STRING) {
                    arr.set(i, Json.NODES.textNode(""));
                }
                continue;
            }
            push(i, null);
            walk(item, l.items());
            depth--;
        }
    }

    private void scalar(JsonNode node, Shape.Scalar sc) {
        switch (sc) {
            case STRING -> {
                if (!node.isTextual()) {
                    save(typeError(GoJson.kind(node), "string"));
                }
            }
            case BOOL -> {
                if (!node.isBoolean()) {
                    save(typeError(GoJson.kind(node), "bool"));
                }
            }
            case FLOAT64 -> {
                if (!node.isNumber()) {
                    save(typeError(GoJson.kind(node), "float64"));
                }
            }
            case INT32, INT64 -> {
                String bad = integerProblem(node, sc == Shape.Scalar.INT32);
                if (bad != null) {
                    save(typeError(bad, sc.goType()));
                }
            }
            case BYTES -> {
                if (!node.isTextual()) {
                    save(typeError(GoJson.kind(node), "[]uint8"));
                } else {
                    String err = GoBase64.check(node.textValue());
                    if (err != null) {
                        save(decodeError(gvk, err));
                    }
                }
            }
            case QUANTITY -> {
                String text = node.isTextual() ? node.textValue().strip() : node.isNumber() ? node.asText() : "{";
                String err = Quantity.check(text);
                if (err != null) {
                    throw decodeError(gvk, err);
                }
            }
            case INT_OR_STRING -> {
                if (!node.isTextual()) {
                    String bad = integerProblem(node, true);
                    if (bad != null) {
                        throw typeError(bad, "int32");
                    }
                }
            }
            case TIME -> {
                if (!node.isTextual()) {
                    throw typeError(GoJson.kind(node), "string");
                }
                String err = GoTime.check(node.textValue());
                if (err != null) {
                    throw decodeError(gvk, err);
                }
            }
            case ANY -> {
            }
        }
    }

    /** How Go describes a value it cannot store in an integer ({@code string}, {@code number 1.5}), or null. */
    private static String integerProblem(JsonNode node, boolean int32) {
        if (!node.isNumber()) {
            return GoJson.kind(node);
        }
        if (node.isInt()) {
            return null;
        }
        if (node.isLong()) {
            long v = node.longValue();
            boolean fits = !int32 || (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE);
            return fits ? null : "number " + node.asText();
        }
        if (node.isBigInteger()) {
            BigInteger v = node.bigIntegerValue();
            boolean fits = !int32 && v.compareTo(INT64_MIN) >= 0 && v.compareTo(INT64_MAX) <= 0;
            return fits ? null : "number " + v;
        }
        return "number " + node.asText();
    }

    private void required(ObjectNode obj, Shape.Struct s) {
        if (s.required.length == 0 || inStatus()) {
            return;
        }
        for (String name : s.required) {
            JsonNode v = obj.get(name);
            if (v != null && !v.isNull() && !(v.isArray() && v.isEmpty())) {
                continue;
            }
            Shape field = s.fields.get(name);
            switch (field) {
                case Shape.Scalar sc when sc == Shape.Scalar.INT32 || sc == Shape.Scalar.INT64
                        || sc == Shape.Scalar.BOOL || sc == Shape.Scalar.INT_OR_STRING || sc == Shape.Scalar.ANY -> {
                }
                case Shape.Struct nested when nested.required.length > 0 -> {
                    push(name, s.goName);
                    required(Json.NODES.objectNode(), nested);
                    depth--;
                }
                case null -> {
                }
                default -> errors.add(FieldError.required(path(name), ""));
            }
        }
    }

    private boolean inStatus() {
        return depth > 0 && "status".equals(segments[0]);
    }

    private void push(Object segment, String owner) {
        if (depth == segments.length) {
            segments = java.util.Arrays.copyOf(segments, depth * 2);
            owners = java.util.Arrays.copyOf(owners, depth * 2);
        }
        segments[depth] = segment;
        owners[depth] = owner;
        depth++;
    }

    /** The kube field path of {@code child} under the current position: {@code spec.containers[0].name}. */
    private String path(String child) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < depth; i++) {
            switch (segments[i]) {
                case Integer index -> b.append('[').append(index).append(']');
                case MapKey key -> b.append('[').append(key.key()).append(']');
                case Object field -> {
                    if (!b.isEmpty()) {
                        b.append('.');
                    }
                    b.append(field);
                }
            }
        }
        if (child != null) {
            if (!b.isEmpty()) {
                b.append('.');
            }
            b.append(child);
        }
        return b.toString();
    }

    /** Go's {@code UnmarshalTypeError} text, with the struct and field stack of the current position. */
    private ApiException typeError(String value, String goType) {
        StringBuilder fields = new StringBuilder();
        String owner = null;
        for (int i = 0; i < depth; i++) {
            if (segments[i] instanceof String field) {
                if (!fields.isEmpty()) {
                    fields.append('.');
                }
                fields.append(field);
                owner = owners[i];
            }
        }
        String message = owner == null
                ? "json: cannot unmarshal %s into Go value of type %s".formatted(value, goType)
                : "json: cannot unmarshal %s into Go struct field %s.%s of type %s".formatted(value, owner, fields, goType);
        return decodeError(gvk, message);
    }

    /** kube-apiserver's {@code transformDecodeError} for an object whose kind was recognised. */
    static ApiException decodeError(GroupVersionKind gvk, String detail) {
        return ApiException.badRequest("%s in version \"%s\" cannot be handled as a %s: %s"
                .formatted(gvk.kind(), gvk.version(), gvk.kind(), detail));
    }

    private record MapKey(String key) {
    }
}

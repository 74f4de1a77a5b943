package io.kapi.machinery.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.DecodeBudget;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * RFC 6902 JSON Patch with the semantics of {@code gopkg.in/evanphx/json-patch.v4}, the library
 * kube-apiserver applies JSON patches with. Its departures from the RFC are kept on purpose, because
 * clients depend on what kube-apiserver accepts:
 * <ul>
 *   <li>{@code replace} of a missing object member adds it (only array indexes must exist);</li>
 *   <li>negative array indexes count from the end ({@code -1} is the last element; for {@code add},
 *       {@code -1} appends);</li>
 *   <li>{@code copy} from a missing object member copies {@code null};</li>
 *   <li>{@code test} with a null or absent value succeeds on a missing member;</li>
 *   <li>{@code replace} of the whole document (path {@code ""}) needs an object or array; {@code add}
 *       at {@code ""} is an error.</li>
 *   <li>what {@code copy} operations add is limited to {@link #MAX_COPY_BYTES} in all, as kube-apiserver
 *       arms {@code AccumulatedCopySizeLimit} with its body limit: doubling a document with each copy
 *       would otherwise grow it exponentially in a few operations.</li>
 * </ul>
 * Instances are single-use: one per patch application.
 */
final class JsonPatch {

    /** kube-apiserver's {@code JSONPatchMaxCopyBytes}: the request body limit, 3 MiB. */
    static final long MAX_COPY_BYTES = 3 * 1024 * 1024;

    private JsonNode root;
    private long copied;

    private JsonPatch(JsonNode root) {
        this.root = root;
    }

    /**
     * The operations of a JSON patch body.
     *
     * @throws io.kapi.machinery.ApiException 400 when the body is not a JSON array of objects, 413 when it
     *     holds more than {@link PatchErrors#MAX_JSON_PATCH_OPERATIONS} operations
     */
    static List<JsonNode> decode(byte[] body) {
        PatchBodies.Parsed parsed = PatchBodies.parse(body);
        parsed.failure().ifPresent(error -> {
            throw PatchErrors.badRequest(error);
        });
        JsonNode node = parsed.node();
        if (node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            throw PatchErrors.badRequest("json: cannot unmarshal %s into Go value of type jsonpatch.Patch"
                    .formatted(GoFormat.jsonKind(node)));
        }
        List<JsonNode> ops = new ArrayList<>(node.size());
        for (JsonNode op : node) {
            if (!op.isObject() && !op.isNull()) {
                throw PatchErrors.badRequest("json: cannot unmarshal %s into Go value of type jsonpatch.Operation"
                        .formatted(GoFormat.jsonKind(op)));
            }
            ops.add(op);
        }
        if (ops.size() > PatchErrors.MAX_JSON_PATCH_OPERATIONS) {
            throw PatchErrors.tooManyOperations(ops.size());
        }
        return ops;
    }

    /**
     * Applies {@code ops} in order to {@code document}, which is modified in place (pass a copy).
     *
     * @return the patched document: {@code document} itself unless the whole document was replaced
     * @throws Failure at the first operation that does not apply, with evanphx's message
     */
    static JsonNode apply(JsonNode document, List<JsonNode> ops) throws Failure {
        JsonPatch patch = new JsonPatch(document);
        for (JsonNode op : ops) {
            patch.applyOne(op);
        }
        return patch.root;
    }

    private void applyOne(JsonNode op) throws Failure {
        String kind = op.path("op").isTextual() ? op.get("op").textValue() : "unknown";
        switch (kind) {
            case "add" -> add(op);
            case "remove" -> remove(op);
            case "replace" -> replace(op);
            case "move" -> move(op);
            case "test" -> test(op);
            case "copy" -> copy(op);
            default -> throw new Failure("Unexpected kind: " + kind);
        }
    }

    private void add(JsonNode op) throws Failure {
        String path = pointer(op, "path", "add operation failed to decode path");
        Slot slot = find(path).orElseThrow(
                () -> new Failure("add operation does not apply: doc is missing path: \"%s\"".formatted(path)));
        slot.add(value(op), path);
    }

    private void remove(JsonNode op) throws Failure {
        String path = pointer(op, "path", "remove operation failed to decode path");
        Slot slot = find(path).orElseThrow(
                () -> new Failure("remove operation does not apply: doc is missing path: \"%s\"".formatted(path)));
        slot.remove(path);
    }

    private void replace(JsonNode op) throws Failure {
        String path = pointer(op, "path", "replace operation failed to decode path");
        if (path.isEmpty()) {
            JsonNode value = value(op);
            if (!value.isObject() && !value.isArray()) {
                throw new Failure("replace operation value must be object or array");
            }
            root = value;
            return;
        }
        Slot slot = find(path).orElseThrow(
                () -> new Failure("replace operation does not apply: doc is missing path: " + path));
        slot.get("replace operation does not apply: doc is missing key: " + path);
        slot.set(value(op));
    }

    private void move(JsonNode op) throws Failure {
        String from = pointer(op, "from", "move operation failed to decode from");
        Slot source = find(from).orElseThrow(
                () -> new Failure("move operation does not apply: doc is missing from path: " + from));
        JsonNode value = source.get("error in move for path: '%s'".formatted(source.key));
        source.remove(source.key);
        String path = pointer(op, "path", "move operation failed to decode path");
        Slot target = find(path).orElseThrow(
                () -> new Failure("move operation does not apply: doc is missing destination path: " + path));
        target.add(value == null ? NullNode.getInstance() : value, path);
    }

    private void test(JsonNode op) throws Failure {
        String path = pointer(op, "path", "test operation failed to decode path");
        JsonNode expected = op.get("value");
        JsonNode actual;
        if (path.isEmpty()) {
            actual = root;
        } else {
            Slot slot = find(path).orElseThrow(
                    () -> new Failure("test operation does not apply: is missing path: " + path));
            actual = slot.get("error in test for path: '%s'".formatted(path));
        }
        boolean expectsNothing = expected == null || expected.isNull();
        boolean passes = actual == null || actual.isNull() ? expectsNothing : !expectsNothing && equal(actual, expected);
        if (!passes) {
            throw new TestFailed("testing value %s failed".formatted(path));
        }
    }

    private void copy(JsonNode op) throws Failure {
        String from = pointer(op, "from", "copy operation failed to decode from");
        Slot source = find(from).orElseThrow(
                () -> new Failure("copy operation does not apply: doc is missing from path: " + from));
        JsonNode value = source.get("error in copy for from: '%s'".formatted(from));
        String path = pointer(op, "path", "copy operation failed to decode path");
        Slot target = find(path).orElseThrow(
                () -> new Failure("copy operation does not apply: doc is missing destination path: " + path));
        if (value != null) {
            copied += DecodeBudget.sizeOf(value, MAX_COPY_BYTES);
            if (copied > MAX_COPY_BYTES) {
                throw new Failure("Unable to complete the copy, the accumulated size increase of copy is %d, "
                        .formatted(copied) + "exceeding the limit %d".formatted(MAX_COPY_BYTES));
            }
        }
        target.add(value == null ? NullNode.getInstance() : value.deepCopy(), path);
    }

    private static String pointer(JsonNode op, String field, String error) throws Failure {
        JsonNode p = op.get(field);
        if (p == null || !p.isTextual()) {
            throw new Failure(error);
        }
        return p.textValue();
    }

    private static JsonNode value(JsonNode op) {
        JsonNode v = op.get("value");
        return v == null ? NullNode.getInstance() : v;
    }

    /**
     * The container and last key a pointer designates, as evanphx's {@code findObject}: every token but
     * the last must name an existing object or array; the text before the first {@code /} is ignored.
     */
    private Optional<Slot> find(String path) {
        String[] tokens = path.split("/", -1);
        if (tokens.length < 2) {
            return Optional.empty();
        }
        JsonNode container = root;
        for (int i = 1; i < tokens.length - 1; i++) {
            JsonNode next = child(container, unescape(tokens[i]));
            if (next == null || !next.isContainerNode()) {
                return Optional.empty();
            }
            container = next;
        }
        return Optional.of(new Slot(container, unescape(tokens[tokens.length - 1])));
    }

    private static JsonNode child(JsonNode container, String key) {
        if (container.isObject()) {
            return container.get(key);
        }
        Integer index = parseIndex(key);
        if (index == null) {
            return null;
        }
        int i = index < 0 ? index + container.size() : index;
        return i >= 0 && i < container.size() ? container.get(i) : null;
    }

    /** RFC 6901 unescaping in one pass: {@code ~1} is {@code /}, {@code ~0} is {@code ~}. */
    static String unescape(String token) {
        if (token.indexOf('~') < 0) {
            return token;
        }
        StringBuilder b = new StringBuilder(token.length());
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c == '~' && i + 1 < token.length() && (token.charAt(i + 1) == '0' || token.charAt(i + 1) == '1')) {
                b.append(token.charAt(i + 1) == '0' ? '~' : '/');
                i++;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    private static Integer parseIndex(String key) {
        try {
            return Integer.parseInt(key);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * Structural equality as evanphx's {@code lazyNode.equal}: objects by members, arrays element-wise,
     * scalars by their compact JSON text (so {@code 1} and {@code 1.0} differ).
     */
    static boolean equal(JsonNode a, JsonNode b) {
        if (a.isObject() && b.isObject()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (Map.Entry<String, JsonNode> e : a.properties()) {
                JsonNode other = b.get(e.getKey());
                if (other == null || !equal(e.getValue(), other)) {
                    return false;
                }
            }
            return true;
        }
        if (a.isArray() && b.isArray()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (int i = 0; i < a.size(); i++) {
                if (!equal(a.get(i), b.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return !a.isContainerNode() && !b.isContainerNode() && a.toString().equals(b.toString());
    }

    /** A member of an object or a position in an array that an operation acts on. */
    private record Slot(JsonNode container, String key) {

        /** The current value, null for a missing object member; a bad array index fails. */
        JsonNode get(String error) throws Failure {
            if (container instanceof ObjectNode obj) {
                return obj.get(key);
            }
            return container.get(arrayIndex(container.size(), error));
        }

        void set(JsonNode value) throws Failure {
            if (container instanceof ObjectNode obj) {
                obj.set(key, value);
            } else {
                ((ArrayNode) container).set(arrayIndex(container.size(), "invalid index " + key), value);
            }
        }

        void add(JsonNode value, String path) throws Failure {
            if (container instanceof ObjectNode obj) {
                obj.set(key, value);
                return;
            }
            ArrayNode array = (ArrayNode) container;
            if (key.equals("-")) {
                array.add(value);
                return;
            }
            Integer index = parseIndex(key);
            if (index == null) {
                throw new Failure("error in add for path: '%s': value was not a proper array index: '%s'"
                        .formatted(path, key));
            }
            int size = array.size() + 1;
            if (index >= size || index < -size) {
                throw new Failure("error in add for path: '%s': Unable to access invalid index: %d"
                        .formatted(path, index));
            }
            array.insert(index < 0 ? index + size : index, value);
        }

        void remove(String path) throws Failure {
            if (container instanceof ObjectNode obj) {
                if (!obj.has(key)) {
                    throw new Failure("error in remove for path: '%s': Unable to remove nonexistent key: %s"
                            .formatted(path, key));
                }
                obj.remove(key);
                return;
            }
            ((ArrayNode) container).remove(arrayIndex(container.size(),
                    "error in remove for path: '%s'".formatted(path)));
        }

        private int arrayIndex(int size, String error) throws Failure {
            Integer index = parseIndex(key);
            if (index == null) {
                throw new Failure(error + ": strconv.Atoi: parsing \"" + key + "\": invalid syntax");
            }
            int i = index < 0 ? index + size : index;
            if (i < 0 || i >= size) {
                throw new Failure(error + ": Unable to access invalid index: " + index);
            }
            return i;
        }
    }

    /** An operation that does not apply; kube-apiserver answers it with a 422 whose text hides this one. */
    static class Failure extends Exception {
        Failure(String message) {
            super(message, null, false, false);
        }
    }

    /** A {@code test} whose value differs (evanphx's {@code ErrTestFailed}); a missing path is a plain failure. */
    static final class TestFailed extends Failure {
        TestFailed(String message) {
            super(message);
        }
    }
}

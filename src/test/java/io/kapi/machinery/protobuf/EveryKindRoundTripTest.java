package io.kapi.machinery.protobuf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Descriptors.Descriptor;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.machinery.schema.Schemas;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every built-in kind with a protobuf form survives JSON -> protobuf -> JSON unchanged, filled from its
 * schema (Kubernetes 1.34) with a value in every property: strings, non-zero numbers, {@code true}, one map
 * entry, one array element, and the special types (times, durations, quantities, int-or-string, raw JSON,
 * base64 bytes) in the forms kube writes them. A recursive type (JSON schemas) is filled two levels deep.
 */
class EveryKindRoundTripTest {

    private static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";
    private static final Map<String, JsonNode> SPECIAL = Map.of(
            META + "Time", Json.NODES.textNode("2024-02-03T04:05:06Z"),
            META + "MicroTime", Json.NODES.textNode("2024-02-03T04:05:06.123456Z"),
            META + "Duration", Json.NODES.textNode("1h2m3s"),
            META + "FieldsV1", tree("{\"f:metadata\":{\"f:labels\":{\".\":{}}}}"),
            "io.k8s.apimachinery.pkg.runtime.RawExtension", tree("{\"apiVersion\":\"v1\",\"kind\":\"Thing\",\"n\":[1,\"x\"]}"),
            "io.k8s.apimachinery.pkg.api.resource.Quantity", Json.NODES.textNode("250m"),
            "io.k8s.apimachinery.pkg.util.intstr.IntOrString", Json.NODES.textNode("25%"));

    private final Schemas schemas = Schemas.load();
    private final Deque<String> path = new ArrayDeque<>();

    @Test
    @DisplayName("every built-in kind, every property filled, round-trips through protobuf unchanged")
    void everyKind() {
        Map<String, String> failures = new TreeMap<>();
        int kinds = 0;
        for (Map.Entry<String, ObjectNode> e : schemas.definitions().entrySet()) {
            if (!Schemas.isTopLevel(e.getValue())) {
                continue;
            }
            Optional<GroupVersionKind> gvk = Schemas.gvkOf(e.getKey(), e.getValue());
            Optional<Descriptor> message = gvk.flatMap(KindIndex.builtIn()::find);
            if (message.isEmpty()) {
                continue;
            }
            kinds++;
            ObjectNode object = (ObjectNode) fill(e.getKey(), e.getValue());
            object.put("apiVersion", gvk.get().apiVersion());
            object.put("kind", gvk.get().kind());
            if (gvk.get().equals(new GroupVersionKind("", "v1", "Pod"))) {
                // the filling reaches deep: inlined handlers, int-or-string, quantities, volume sources
                assertEquals("25%", object.at("/spec/containers/0/livenessProbe/httpGet/port").asText());
                assertEquals("250m", object.at("/spec/containers/0/resources/limits/key").asText());
                assertEquals("s-name", object.at("/spec/volumes/0/configMap/name").asText());
            }
            try {
                JsonNode back = ProtobufCodec.decode(ProtobufCodec.encode(object, gvk.get()), gvk.get());
                if (!same(object, back)) {
                    failures.put(gvk.get().toString(), firstDifference("", object, back));
                }
            } catch (RuntimeException x) {
                failures.put(gvk.get().toString(), x.toString());
            }
        }
        assertTrue(kinds > 200, "kinds: " + kinds);
        assertEquals(Map.of(), failures);
    }

    @Test
    @DisplayName("every built-in kind read off the wire (WireToJson) gives the tree its parsed message gives")
    void wireReadsAsParsed() throws Exception {
        ProtoToJson parsed = new ProtoToJson(Json.compactNodes(), Json.COMPACT_READER, RequiredFields.builtIn());
        Map<String, String> failures = new TreeMap<>();
        int kinds = 0;
        for (Map.Entry<String, ObjectNode> e : schemas.definitions().entrySet()) {
            Optional<GroupVersionKind> gvk = Schemas.isTopLevel(e.getValue()) ? Schemas.gvkOf(e.getKey(), e.getValue())
                    : Optional.empty();
            Optional<Descriptor> message = gvk.flatMap(KindIndex.builtIn()::find);
            if (message.isEmpty()) {
                continue;
            }
            kinds++;
            ObjectNode object = (ObjectNode) fill(e.getKey(), e.getValue());
            object.put("apiVersion", gvk.get().apiVersion());
            object.put("kind", gvk.get().kind());
            byte[] stored = ProtobufCodec.encode(object, gvk.get());
            com.google.protobuf.ByteString raw = io.kubernetes.client.proto.Runtime.Unknown
                    .parseFrom(java.util.Arrays.copyOfRange(stored, 4, stored.length)).getRaw();
            ObjectNode want = Json.compactNodes().objectNode();
            want.put("apiVersion", gvk.get().apiVersion());
            want.put("kind", gvk.get().kind());
            parsed.writeFields(com.google.protobuf.DynamicMessage.parseFrom(message.get(), raw), want);
            ObjectNode got = ProtobufCodec.decodeStored(stored);
            if (!want.equals(got) || !Json.MAPPER.writeValueAsString(want).equals(Json.MAPPER.writeValueAsString(got))) {
                failures.put(gvk.get().toString(), firstDifference("", want, got));
            }
        }
        assertTrue(kinds > 200, "kinds: " + kinds);
        assertEquals(Map.of(), failures);
    }

    @Test
    @DisplayName("every built-in kind written in one pass (TreeWriter), as an ordinary and as a compact tree, "
            + "is the bytes of the two passes (TreeEncoder)")
    void onePassWritesTwoPassBytes() throws Exception {
        Map<String, String> failures = new TreeMap<>();
        int kinds = 0;
        TreeWriter writer = new TreeWriter(16); // a small buffer: growing and moving lengths up both happen
        for (Map.Entry<String, ObjectNode> e : schemas.definitions().entrySet()) {
            Optional<GroupVersionKind> gvk = Schemas.isTopLevel(e.getValue()) ? Schemas.gvkOf(e.getKey(), e.getValue())
                    : Optional.empty();
            Optional<Descriptor> message = gvk.flatMap(KindIndex.builtIn()::find);
            if (message.isEmpty()) {
                continue;
            }
            kinds++;
            ObjectNode object = (ObjectNode) fill(e.getKey(), e.getValue());
            MessagePlan plan = MessagePlan.of(message.get());
            TreeEncoder encoder = new TreeEncoder();
            byte[] want = new byte[encoder.size(object, plan)];
            com.google.protobuf.CodedOutputStream out = com.google.protobuf.CodedOutputStream.newInstance(want);
            encoder.write(object, plan, out);
            out.checkNoSpaceLeft();
            byte[] got = writer.message(object, plan);
            if (!java.util.Arrays.equals(want, got)) {
                failures.put(gvk.get().toString(), "first difference at byte "
                        + java.util.Arrays.mismatch(want, got) + " of " + want.length + " / " + got.length);
            }
            // the watch cache's trees, whose fields are read by index
            byte[] compact = writer.message(Json.COMPACT_READER.readTree(object.toString()), plan);
            if (!java.util.Arrays.equals(want, compact)) {
                failures.put(gvk.get() + " (compact)", "first difference at byte "
                        + java.util.Arrays.mismatch(want, compact) + " of " + want.length + " / " + compact.length);
            }
        }
        assertTrue(kinds > 200, "kinds: " + kinds);
        assertEquals(Map.of(), failures);
    }

    @Test
    @DisplayName("every built-in kind's stored message with a resourceVersion spliced in is the bytes TreeWriter "
            + "writes for the tree the watch cache decodes from it with that version (its tree when read back, its "
            + "bytes when stored as read), stored with a version or not")
    void storedMessageTakesItsVersion() throws Exception {
        Map<String, String> failures = new TreeMap<>();
        int kinds = 0;
        TreeWriter writer = new TreeWriter();
        for (Map.Entry<String, ObjectNode> e : schemas.definitions().entrySet()) {
            Optional<GroupVersionKind> gvk = Schemas.isTopLevel(e.getValue()) ? Schemas.gvkOf(e.getKey(), e.getValue())
                    : Optional.empty();
            Optional<Descriptor> message = gvk.flatMap(KindIndex.builtIn()::find);
            if (message.isEmpty() || message.get().findFieldByName("metadata") == null
                    || !message.get().findFieldByName("metadata").getMessageType().getName().equals("ObjectMeta")) {
                continue; // lists: a ListMeta, and no object of theirs is stored
            }
            kinds++;
            ObjectNode filled = (ObjectNode) fill(e.getKey(), e.getValue());
            filled.put("apiVersion", gvk.get().apiVersion());
            filled.put("kind", gvk.get().kind());
            // as written: normalized (its fields in the order the decoder reads them), or in another order
            ObjectNode normal = ProtobufCodec.decodeStored(ProtobufCodec.encode(filled, gvk.get()));
            for (ObjectNode object : List.of(normal, filled)) {
                for (String kept : new String[] {"s-resourceVersion", null}) {
                    if (kept == null) {
                        ((ObjectNode) object.get("metadata")).remove("resourceVersion"); // as storage writes it
                    }
                    for (String version : List.of("1", "123456789012345")) {
                        String at = gvk.get() + (object == normal ? " normal" : " unordered") + ", stored " + kept
                                + ", as " + version;
                        ProtobufCodec.Stored stored = ProtobufCodec.readStored(ProtobufCodec.encode(object, gvk.get()));
                        ((ObjectNode) stored.object().get("metadata")).put("resourceVersion", version);
                        byte[] got = stored.message().withResourceVersion(version);
                        if (got == null) {
                            failures.put(at, "null");
                            continue;
                        }
                        // what a client reads is the cache's tree
                        JsonNode read = ProtobufCodec.decodeStored(ProtobufCodec.wrap(gvk.get(), got));
                        if (!tree(read.toString()).equals(tree(stored.object().toString()))) {
                            failures.put(at, firstDifference("", stored.object(), read));
                        }
                        // and, where it was stored as Kapi and kube store (no version) in the order it is read,
                        // the bytes of the cache's tree
                        byte[] want = writer.message(stored.object(), MessagePlan.of(message.get()));
                        if (object == normal && kept == null && !java.util.Arrays.equals(want, got)) {
                            failures.put(at, "first difference at byte " + java.util.Arrays.mismatch(want, got)
                                    + " of " + want.length + " / " + got.length);
                        }
                    }
                }
            }
        }
        assertTrue(kinds > 100, "kinds: " + kinds);
        assertEquals(Map.of(), failures);
    }

    private JsonNode fill(String name, JsonNode def) {
        JsonNode special = SPECIAL.get(name);
        if (special != null) {
            return special.deepCopy();
        }
        if (name.endsWith("JSONSchemaPropsOrBool")) {
            return Json.NODES.booleanNode(true);
        }
        if (name.endsWith("JSONSchemaPropsOrStringArray")) {
            return Json.NODES.arrayNode().add("a");
        }
        if (name.endsWith("apiextensions.v1.JSON")) {
            return tree("{\"any\":[1,2]}");
        }
        ObjectNode out = Json.object();
        if (java.util.Collections.frequency(path, name) >= 2) {
            return out;
        }
        path.push(name);
        for (Map.Entry<String, JsonNode> p : def.path("properties").properties()) {
            if (List.of("apiVersion", "kind").contains(p.getKey())) {
                continue;
            }
            JsonNode value = value(p.getKey(), p.getValue());
            if (value != null) {
                out.set(p.getKey(), value);
            }
        }
        path.pop();
        return out;
    }

    private JsonNode value(String property, JsonNode schema) {
        String ref = schema.path("$ref").asText("");
        if (ref.startsWith("#/definitions/")) {
            String target = ref.substring("#/definitions/".length());
            if (target.endsWith("JSONSchemaPropsOrArray")) {
                return path.contains(target) ? null : fill(target.replace("OrArray", ""), schemas.definition(
                        target.replace("OrArray", "")));
            }
            JsonNode def = schemas.definition(target);
            JsonNode v = fill(target, def == null ? Json.object() : def);
            return v instanceof ObjectNode o && o.isEmpty() && java.util.Collections.frequency(path, target) >= 2 ? null : v;
        }
        return switch (schema.path("type").asText("")) {
            case "string" -> schema.path("format").asText("").equals("byte") ? Json.NODES.textNode("AQID")
                    : schema.path("format").asText("").equals("int-or-string") ? Json.NODES.textNode("25%")
                    : Json.NODES.textNode("s-" + property);
            case "integer" -> Json.NODES.numberNode(7);
            case "number" -> Json.NODES.numberNode(1.5);
            case "boolean" -> Json.NODES.booleanNode(true);
            case "array" -> {
                JsonNode item = value(property, schema.path("items"));
                yield item == null ? null : Json.NODES.arrayNode().add(item);
            }
            case "object" -> {
                JsonNode values = schema.path("additionalProperties");
                if (values.isObject()) {
                    JsonNode v = value(property, values);
                    yield v == null ? null : Json.object().set("key", v);
                }
                yield Json.object();
            }
            default -> null;
        };
    }

    private static String firstDifference(String at, JsonNode want, JsonNode got) {
        if (want instanceof ObjectNode w && got instanceof ObjectNode g) {
            for (Map.Entry<String, JsonNode> e : w.properties()) {
                if (g.get(e.getKey()) == null || !same(e.getValue(), g.get(e.getKey()))) {
                    return g.get(e.getKey()) == null ? at + "." + e.getKey() + " lost"
                            : firstDifference(at + "." + e.getKey(), e.getValue(), g.get(e.getKey()));
                }
            }
            for (String k : (Iterable<String>) g::fieldNames) {
                if (!w.has(k)) {
                    return at + "." + k + " added: " + g.get(k);
                }
            }
        }
        if (want instanceof ArrayNode w && got instanceof ArrayNode g && w.size() == g.size()) {
            for (int i = 0; i < w.size(); i++) {
                if (!same(w.get(i), g.get(i))) {
                    return firstDifference(at + "[" + i + "]", w.get(i), g.get(i));
                }
            }
        }
        return at + ": " + want + " became " + got;
    }

    /** Equal as JSON text is: a number is its value, whatever node holds it (int64 fields read back as longs). */
    private static boolean same(JsonNode a, JsonNode b) {
        return a.equals((x, y) -> x.equals(y) || x.isNumber() && y.isNumber()
                && x.decimalValue().compareTo(y.decimalValue()) == 0 ? 0 : 1, b);
    }

    private static JsonNode tree(String json) {
        try {
            return Json.MAPPER.readTree(json);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

}

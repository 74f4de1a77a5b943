package io.kapi.machinery.protobuf;

import static io.kapi.machinery.protobuf.ProtobufDecodeTest.assertTree;
import static io.kapi.machinery.protobuf.ProtobufDecodeTest.tree;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.CodedOutputStream;
import io.kapi.machinery.GroupVersionKind;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Admissionregistration;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TreeEncoderTest {

    private static final GroupVersionKind POD_LIST = new GroupVersionKind("", "v1", "PodList");

    static final String POD = """
            {"metadata":{"name":"p%d","namespace":"default","uid":"u-%d","resourceVersion":"%d",
               "creationTimestamp":"2024-02-03T04:05:06Z","labels":{"app":"web"},
               "managedFields":[{"manager":"kubectl","operation":"Update","apiVersion":"v1",
                 "time":"2024-02-03T04:05:06Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:containers":{}}}}]},
             "spec":{"containers":[{"name":"c","image":"nginx","resources":{"limits":{"cpu":"1"}},
               "readinessProbe":{"httpGet":{"path":"/","port":8080},"periodSeconds":5}}],
               "volumes":[{"name":"v","configMap":{"name":"cm","defaultMode":420}},{"name":"e","emptyDir":{}}]},
             "status":{"phase":"Running","startTime":null,
               "conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2024-02-03T04:05:07Z"}]}}""";

    static List<ObjectNode> pods(int n) {
        List<ObjectNode> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add((ObjectNode) tree(POD.formatted(i, i, i)));
        }
        return out;
    }

    @Test
    @DisplayName("a streamed list is the same bytes as the whole list encoded at once")
    void streamedListEqualsWhole() throws Exception {
        List<ObjectNode> items = pods(50); // more measures than the encoder's first array holds
        ObjectNode whole = (ObjectNode) tree("""
                {"apiVersion":"v1","kind":"PodList","metadata":{"resourceVersion":"9","continue":"c"}}""");
        whole.putArray("items").addAll(items);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<Integer> seen = new ArrayList<>();
        ProtobufCodec.writeList(whole.deepCopy().without("items"), items, POD_LIST, out, seen::add,
                ProtobufCodec.ItemEncodings.NONE);
        assertArrayEquals(ProtobufCodec.encode(whole, POD_LIST), out.toByteArray());
        assertEquals(java.util.stream.IntStream.range(0, 50).boxed().toList(), seen);
        V1.PodList typed = V1.PodList.parseFrom(Runtime.Unknown.parseFrom(
                Arrays.copyOfRange(out.toByteArray(), 4, out.size())).getRaw());
        assertEquals("9", typed.getMetadata().getResourceVersion());
        assertEquals("p2", typed.getItems(2).getMetadata().getName());
        assertEquals("{\"f:spec\":{\"f:containers\":{}}}",
                typed.getItems(0).getMetadata().getManagedFields(0).getFieldsV1().getRaw().toStringUtf8());
    }

    @Test
    @DisplayName("items that keep their messages are encoded once: a second list copies them, the same bytes")
    void keptEncodings() throws Exception {
        List<ObjectNode> items = pods(5);
        JsonNode envelope = tree("{\"metadata\":{\"resourceVersion\":\"9\"}}");
        java.util.Map<Integer, byte[]> kept = new java.util.HashMap<>();
        java.util.concurrent.atomic.AtomicInteger made = new java.util.concurrent.atomic.AtomicInteger();
        ProtobufCodec.ItemEncodings keeping = (index, kind, encoder) -> {
            assertEquals("k8s.io.api.core.v1.Pod", kind);
            return kept.computeIfAbsent(index, i -> {
                made.incrementAndGet();
                return encoder.get();
            });
        };
        byte[] none = list(envelope, items, ProtobufCodec.ItemEncodings.NONE);
        assertArrayEquals(none, list(envelope, items, keeping));
        assertArrayEquals(none, list(envelope, items, keeping));
        assertEquals(5, made.get());
    }

    private static byte[] list(JsonNode envelope, List<ObjectNode> items, ProtobufCodec.ItemEncodings encodings)
            throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ProtobufCodec.writeList(envelope, items, POD_LIST, out, i -> { }, encodings);
        return out.toByteArray();
    }

    @Test
    @DisplayName("an empty list is its envelope and list metadata")
    void emptyList() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ProtobufCodec.writeList(tree("{\"metadata\":{\"resourceVersion\":\"3\"}}"), List.of(), POD_LIST, out, i -> { },
                ProtobufCodec.ItemEncodings.NONE);
        V1.PodList typed = V1.PodList.parseFrom(Runtime.Unknown.parseFrom(
                Arrays.copyOfRange(out.toByteArray(), 4, out.size())).getRaw());
        assertEquals(0, typed.getItemsCount());
        assertEquals("3", typed.getMetadata().getResourceVersion());
    }

    @Test
    @DisplayName("without a memo budget the second pass remakes raw JSON and base64 values: same bytes")
    void noMemoSameBytes() throws Exception {
        JsonNode pod = tree(POD.formatted(1, 1, 1));
        JsonNode secret = tree("""
                {"metadata":{"name":"s"},"data":{"a":"AAEC","b":""},"type":"Opaque"}""");
        for (var c : List.of(new Object[] {pod, new GroupVersionKind("", "v1", "Pod")},
                new Object[] {secret, ProtobufDecodeTest.SECRET})) {
            JsonNode json = (JsonNode) c[0];
            GroupVersionKind gvk = (GroupVersionKind) c[1];
            assertArrayEquals(message(json, gvk, TreeEncoder.MEMO_BYTES), message(json, gvk, 0));
        }
    }

    private static byte[] message(JsonNode json, GroupVersionKind gvk, long budget) throws Exception {
        MessagePlan plan = MessagePlan.of(KindIndex.builtIn().find(gvk).orElseThrow());
        TreeEncoder encoder = new TreeEncoder(budget);
        byte[] out = new byte[encoder.size(json, plan)];
        CodedOutputStream cos = CodedOutputStream.newInstance(out);
        encoder.write(json, plan, cos);
        cos.checkNoSpaceLeft();
        return out;
    }

    @Test
    @DisplayName("fields JSON inlines two levels deep (NamedRuleWithOperations) and empty inlined messages")
    void nestedInline() throws Exception {
        String policy = """
                {"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy",
                 "metadata":{"name":"p"},
                 "spec":{"matchConstraints":{"resourceRules":[
                   {"resourceNames":["a"],"operations":["CREATE"],"apiGroups":[""],"apiVersions":["v1"],
                    "resources":["pods"],"scope":"*"},
                   {"resourceNames":["b"]}]},
                   "validations":[{"expression":"true"}]}}""";
        GroupVersionKind gvk = new GroupVersionKind("admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicy");
        byte[] body = ProtobufCodec.encode(tree(policy), gvk);
        var typed = V1Admissionregistration.ValidatingAdmissionPolicy.parseFrom(
                Runtime.Unknown.parseFrom(Arrays.copyOfRange(body, 4, body.length)).getRaw());
        var rules = typed.getSpec().getMatchConstraints().getResourceRulesList();
        assertEquals("pods", rules.get(0).getRuleWithOperations().getRule().getResources(0));
        assertFalse(rules.get(1).hasRuleWithOperations());
        assertTree(policy, ProtobufCodec.decode(body, gvk));
    }

    @Test
    @DisplayName("a null time is written as the zero time; other nulls and unknown keys are left out")
    void nulls() throws Exception {
        JsonNode json = tree("""
                {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","creationTimestamp":null,
                 "namespace":null,"labels":null,"extra":{"x":1}},"data":null,"unknown":[1,2]}""");
        byte[] body = ProtobufCodec.encode(json, ProtobufDecodeTest.CONFIG_MAP);
        V1.ConfigMap cm = V1.ConfigMap.parseFrom(Runtime.Unknown.parseFrom(Arrays.copyOfRange(body, 4, body.length))
                .getRaw());
        assertEquals(Meta.Time.getDefaultInstance(), cm.getMetadata().getCreationTimestamp());
        assertFalse(cm.getMetadata().hasNamespace());
        assertEquals(0, cm.getDataCount());
    }

    @Test
    @DisplayName("a value that cannot be converted fails before anything is written")
    void badValues() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<ObjectNode> items = List.of((ObjectNode) tree("{\"metadata\":{\"creationTimestamp\":\"yesterday\"}}"));
        assertThrows(IllegalArgumentException.class,
                () -> ProtobufCodec.writeList(tree("{}"), items, POD_LIST, out, i -> { },
                        ProtobufCodec.ItemEncodings.NONE));
        assertEquals(0, out.size());
        assertThrows(IllegalArgumentException.class, () -> ProtobufCodec.encode(
                tree("{\"metadata\":\"x\"}"), ProtobufDecodeTest.CONFIG_MAP));
        assertThrows(IllegalArgumentException.class, () -> ProtobufCodec.encode(
                tree("{\"binaryData\":{\"a\":\"%%%\"}}"), ProtobufDecodeTest.CONFIG_MAP));
    }

    @Test
    @DisplayName("times in RFC 3339 with an offset or fraction read as the general parser reads them")
    void timeForms() throws Exception {
        for (String t : List.of("2024-02-29T23:59:59Z", "2024-02-03T05:05:06+01:00", "1970-01-01T00:00:00Z")) {
            JsonNode json = tree("{\"metadata\":{\"creationTimestamp\":\"" + t + "\"}}");
            byte[] body = ProtobufCodec.encode(json, ProtobufDecodeTest.CONFIG_MAP);
            V1.ConfigMap cm = V1.ConfigMap.parseFrom(Runtime.Unknown.parseFrom(
                    Arrays.copyOfRange(body, 4, body.length)).getRaw());
            assertEquals(java.time.OffsetDateTime.parse(t).toEpochSecond(),
                    cm.getMetadata().getCreationTimestamp().getSeconds(), t);
        }
        assertThrows(IllegalArgumentException.class, () -> ProtobufCodec.encode(
                tree("{\"metadata\":{\"creationTimestamp\":\"2023-02-29T00:00:00Z\"}}"), ProtobufDecodeTest.CONFIG_MAP));
    }
}

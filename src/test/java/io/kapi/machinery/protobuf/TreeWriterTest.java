package io.kapi.machinery.protobuf;

import static io.kapi.machinery.protobuf.ProtobufDecodeTest.tree;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.CodedOutputStream;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kubernetes.client.proto.V1;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@link TreeWriter}'s one walk against {@link TreeEncoder}'s two, byte for byte (every kind: EveryKindRoundTripTest). */
class TreeWriterTest {

    private static final GroupVersionKind POD = new GroupVersionKind("", "v1", "Pod");

    @Test
    @DisplayName("strings beyond ASCII and unpaired surrogates are the bytes protobuf-java writes")
    void strings() throws Exception {
        for (String s : List.of("", "plain", "é", "日本語", "emoji \uD83D\uDE00", "lone \uD800 high", "lone \uDC00 low",
                "\u007f\u0080")) {
            ObjectNode cm = Json.object();
            cm.putObject("metadata").put("name", s).putObject("labels").put(s, s);
            cm.putObject("data").put("k", s);
            assertSame(cm, ProtobufDecodeTest.CONFIG_MAP);
        }
    }

    @Test
    @DisplayName("messages of 128 bytes and more, nested, move up for lengths of two and three bytes")
    void longMessages() throws Exception {
        for (int n : new int[] {100, 126, 127, 128, 129, 16_000, 16_383, 16_384, 70_000, 2_100_000}) {
            ObjectNode pod = (ObjectNode) tree(TreeEncoderTest.POD.formatted(1, 1, 1));
            ((ObjectNode) pod.at("/spec/containers/0")).put("image", "x".repeat(n));
            ((ObjectNode) pod.get("metadata")).putObject("annotations").put("a", "y".repeat(n / 2));
            byte[] got = assertSame(pod, POD);
            assertEquals("x".repeat(n), V1.Pod.parseFrom(got).getSpec().getContainers(0).getImage());
        }
    }

    @Test
    @DisplayName("negative and large numbers, booleans, empty and null values, as the two passes write them")
    void scalars() throws Exception {
        JsonNode pod = tree("""
                {"metadata":{"name":"p","generation":-3,"deletionGracePeriodSeconds":9223372036854775807,
                  "creationTimestamp":null,"deletionTimestamp":"","labels":{},"finalizers":[]},
                 "spec":{"priority":-2147483648,"enableServiceLinks":false,"hostNetwork":true,
                   "containers":[{"name":"c","ports":[{"containerPort":-1}],"resources":{}}],
                   "securityContext":{"runAsUser":0}},
                 "status":{"startTime":null,"conditions":null}}""");
        assertSame(pod, POD);
    }

    @Test
    @DisplayName("a writer used for many messages gives each its own bytes")
    void reused() throws Exception {
        TreeWriter writer = new TreeWriter(16);
        MessagePlan plan = plan(POD);
        for (ObjectNode pod : TreeEncoderTest.pods(20)) {
            assertArrayEquals(twoPasses(pod, plan), writer.message(pod, plan));
        }
    }

    @Test
    @DisplayName("a value that cannot be converted is refused as the two passes refuse it")
    void refused() {
        MessagePlan plan = plan(ProtobufDecodeTest.CONFIG_MAP);
        for (String bad : List.of("{\"metadata\":\"x\"}", "{\"binaryData\":{\"a\":\"%%%\"}}",
                "{\"metadata\":{\"creationTimestamp\":\"yesterday\"}}")) {
            assertThrows(IllegalArgumentException.class, () -> twoPasses(tree(bad), plan), bad);
            assertThrows(IllegalArgumentException.class, () -> new TreeWriter().message(tree(bad), plan), bad);
        }
    }

    private static byte[] assertSame(JsonNode json, GroupVersionKind gvk) throws Exception {
        MessagePlan plan = plan(gvk);
        byte[] want = twoPasses(json, plan);
        byte[] got = new TreeWriter(16).message(json, plan);
        assertArrayEquals(want, got, json.toString().length() > 200 ? gvk.toString() : json.toString());
        return got;
    }

    private static MessagePlan plan(GroupVersionKind gvk) {
        return MessagePlan.of(KindIndex.builtIn().find(gvk).orElseThrow());
    }

    private static byte[] twoPasses(JsonNode json, MessagePlan plan) throws Exception {
        TreeEncoder encoder = new TreeEncoder();
        byte[] out = new byte[encoder.size(json, plan)];
        CodedOutputStream cos = CodedOutputStream.newInstance(out);
        encoder.write(json, plan, cos);
        cos.checkNoSpaceLeft();
        return out;
    }
}

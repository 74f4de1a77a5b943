package io.kapi.endpoint.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("a streamed list has the bytes of the encoded list")
class ListStreamingTest {

    private static ObjectNode envelope() {
        ObjectNode list = Json.object().put("kind", "ConfigMapList").put("apiVersion", "v1");
        list.putObject("metadata").put("resourceVersion", "42").put("continue", "abc");
        list.putArray("items");
        return list;
    }

    private static List<ObjectNode> items(int n) {
        List<ObjectNode> items = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ObjectNode cm = Json.object().put("apiVersion", "v1").put("kind", "ConfigMap");
            cm.putObject("metadata").put("name", "cm-" + i).putObject("labels").put("a", "b\"c");
            cm.putObject("data").put("k", "v" + i).put("n", "\u00e9\n");
            items.add(cm);
        }
        return items;
    }

    @Test
    @DisplayName("compact JSON, empty and full lists, items left unmodified")
    void sameBytes() throws Exception {
        for (boolean pretty : new boolean[] {false}) {
            for (int n : new int[] {0, 1, 50}) {
                ResponseTarget target = new ResponseTarget(Format.JSON, null, pretty);
                List<ObjectNode> items = items(n);
                ObjectNode whole = envelope();
                items.forEach(i -> whole.withArray("items").add(i.deepCopy().without(List.of("apiVersion", "kind"))));
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                ResponseEncoder.writeList(envelope(), items, Set.of("apiVersion", "kind"), target, out,
                        io.kapi.machinery.protobuf.ProtobufCodec.ItemEncodings.NONE);
                assertArrayEquals(ResponseEncoder.encode(whole, target), out.toByteArray(), "pretty " + pretty + ", " + n);
                items.forEach(i -> assertEquals("ConfigMap", i.path("kind").asText()));
            }
        }
    }
}

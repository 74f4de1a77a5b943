package io.kapi.endpoint.watch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.codec.Format;
import io.kapi.endpoint.codec.ResponseTarget;
import io.kapi.endpoint.table.TableConvertor;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.machinery.protobuf.ProtobufCodec;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.storage.cache.SharedFrames;
import io.kubernetes.client.proto.Meta;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class EventEncoderTest {

    private static final ApiResource CONFIGMAPS = new ApiResource("", "v1", "configmaps", "configmap", "ConfigMap",
            true, List.of("watch"), List.of(), List.of(), List.of());
    private static final ResponseTarget PROTOBUF = new ResponseTarget(Format.PROTOBUF, null, false);

    private static EventEncoder encoder(ResponseTarget target) {
        return new EventEncoder(CONFIGMAPS, target, TableConvertor.withoutSchemas(), null, Clock.systemUTC());
    }

    private static ObjectNode configMap(String name) throws Exception {
        return (ObjectNode) Json.MAPPER.readTree("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
                + name + "\",\"resourceVersion\":\"5\"},\"data\":{\"k\":\"v\"}}");
    }

    @Test
    @DisplayName("an event is encoded once per encoding: every protobuf watcher sends the same frame")
    void oncePerEncoding() throws Exception {
        ObjectNode object = configMap("c");
        SharedFrames shared = new SharedFrames();
        byte[] first = encoder(PROTOBUF).object("ADDED", object, shared);
        for (int watcher = 0; watcher < 100; watcher++) {
            assertSame(first, encoder(PROTOBUF).object("ADDED", object, shared));
        }
        byte[] json = encoder(ResponseTarget.JSON).object("ADDED", object, shared);
        assertNotSame(first, json);
        assertSame(json, encoder(ResponseTarget.JSON).object("ADDED", object, shared));
        assertEquals('{', json[0]);
    }

    @Test
    @DisplayName("a protobuf frame is a big-endian length and a WatchEvent whose raw object is the k8s envelope")
    void frameBytes() throws Exception {
        ObjectNode object = configMap("c");
        byte[] frame = encoder(PROTOBUF).object("MODIFIED", object, new SharedFrames());
        assertEquals(frame.length - 4, ByteBuffer.wrap(frame).getInt());
        Meta.WatchEvent event = Meta.WatchEvent.parseFrom(Arrays.copyOfRange(frame, 4, frame.length));
        assertEquals("MODIFIED", event.getType());
        assertArrayEquals(ProtobufCodec.encode(object, new GroupVersionKind("", "v1", "ConfigMap")),
                event.getObject().getRaw().toByteArray());
        // the WatchEvent's own bytes: field 1 (type, tag 0x0a) first, then field 2 (object, tag 0x12)
        assertEquals(0x0a, frame[4]);
        assertEquals("MODIFIED".length(), frame[5]);
        assertEquals(0x12, frame[6 + "MODIFIED".length()]);
    }

    @Test
    @DisplayName("a DELETED frame carries its own (previous) object, not the one the event's ADDED watchers got")
    void deletedKeepsItsObject() throws Exception {
        SharedFrames shared = new SharedFrames();
        byte[] modified = encoder(PROTOBUF).object("MODIFIED", configMap("new"), shared);
        byte[] deleted = encoder(PROTOBUF).object("DELETED", configMap("old"), shared);
        Meta.WatchEvent m = Meta.WatchEvent.parseFrom(Arrays.copyOfRange(modified, 4, modified.length));
        Meta.WatchEvent d = Meta.WatchEvent.parseFrom(Arrays.copyOfRange(deleted, 4, deleted.length));
        GroupVersionKind cm = new GroupVersionKind("", "v1", "ConfigMap");
        assertEquals("new", ProtobufCodec.decode(m.getObject().getRaw().toByteArray(), cm).at("/metadata/name").asText());
        assertEquals("old", ProtobufCodec.decode(d.getObject().getRaw().toByteArray(), cm).at("/metadata/name").asText());
    }

    @Test
    @DisplayName("bookmarks and errors in protobuf: the resource's kind with only a resourceVersion, and a Status")
    void bookmarkAndError() throws Exception {
        byte[] bookmark = encoder(PROTOBUF).bookmark(42, false);
        Meta.WatchEvent b = Meta.WatchEvent.parseFrom(Arrays.copyOfRange(bookmark, 4, bookmark.length));
        assertEquals("BOOKMARK", b.getType());
        assertEquals("42", ProtobufCodec.decode(b.getObject().getRaw().toByteArray(),
                new GroupVersionKind("", "v1", "ConfigMap")).at("/metadata/resourceVersion").asText());
        ObjectNode status = (ObjectNode) Json.MAPPER.readTree("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
                + "\"metadata\":{},\"status\":\"Failure\",\"message\":\"too old resource version: 1 (5)\","
                + "\"reason\":\"Expired\",\"code\":410}");
        byte[] error = encoder(PROTOBUF).error(status);
        Meta.WatchEvent e = Meta.WatchEvent.parseFrom(Arrays.copyOfRange(error, 4, error.length));
        assertEquals("ERROR", e.getType());
        byte[] raw = e.getObject().getRaw().toByteArray();
        assertEquals(410, Meta.Status.parseFrom(io.kubernetes.client.proto.Runtime.Unknown.parseFrom(
                Arrays.copyOfRange(raw, 4, raw.length)).getRaw()).getCode());
    }
}

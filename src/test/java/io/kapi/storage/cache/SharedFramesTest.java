package io.kapi.storage.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.machinery.protobuf.ProtobufCodec;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SharedFramesTest {

    private static final GroupVersionKind CONFIG_MAP = new GroupVersionKind("", "v1", "ConfigMap");
    private static final String MESSAGE = ProtobufCodec.messageName(CONFIG_MAP);

    /** A cached object: its tree and its frames. */
    private record Cached(ObjectNode tree, SharedFrames frames) {
    }

    /** A configmap as storage keeps it (no resourceVersion), decoded by the cache at revision 42. */
    private static Cached stored() throws Exception {
        ObjectNode object = (ObjectNode) Json.MAPPER.readTree("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
                + "\"metadata\":{\"name\":\"a\",\"namespace\":\"n\",\"uid\":\"u-1\",\"labels\":{\"x\":\"y\"}},"
                + "\"data\":{\"k\":\"v\"}}");
        ProtobufCodec.Stored read = ProtobufCodec.readStored(ProtobufCodec.encode(object, CONFIG_MAP));
        ((ObjectNode) read.object().get("metadata")).put("resourceVersion", "42");
        return new Cached(read.object(), new SharedFrames(read.message(), 42, new ProtobufReaders()));
    }

    private static Supplier<byte[]> counting(AtomicInteger calls, ObjectNode tree) {
        return () -> {
            calls.incrementAndGet();
            return ProtobufCodec.encodeMessage(tree, CONFIG_MAP);
        };
    }

    @Test
    @DisplayName("a cached object's message comes from its stored value, once, and reads as its tree with its version")
    void messageFromStoredValue() throws Exception {
        Cached cached = stored();
        SharedFrames frames = cached.frames();
        AtomicInteger encodes = new AtomicInteger();
        byte[] first = frames.message(MESSAGE, counting(encodes, cached.tree()));
        assertSame(first, frames.message(MESSAGE, counting(encodes, cached.tree())));
        assertEquals(0, encodes.get(), "the tree was not walked");
        assertArrayEquals(ProtobufCodec.encodeMessage(cached.tree(), CONFIG_MAP), first);
        assertEquals(cached.tree(), ProtobufCodec.decodeStored(ProtobufCodec.wrap(CONFIG_MAP, first)));
        // a GET's or a watch event's bytes: that message in the envelope encode writes
        assertArrayEquals(ProtobufCodec.encode(cached.tree(), CONFIG_MAP), frames.protobuf(cached.tree(), CONFIG_MAP));
        assertEquals(0, encodes.get());
    }

    @Test
    @DisplayName("another kind's message, and an object stored as JSON, are written from the tree and kept")
    void otherwiseFromTree() throws Exception {
        Cached cached = stored();
        SharedFrames frames = cached.frames();
        AtomicInteger encodes = new AtomicInteger();
        Supplier<byte[]> other = () -> {
            encodes.incrementAndGet();
            return new byte[] {1, 2};
        };
        byte[] made = frames.message("k8s.io.apimachinery.pkg.apis.meta.v1.PartialObjectMetadata", other);
        assertSame(made, frames.message("k8s.io.apimachinery.pkg.apis.meta.v1.PartialObjectMetadata", other));
        assertEquals(1, encodes.get());

        SharedFrames json = new SharedFrames();
        encodes.set(0);
        byte[] fromTree = json.message(MESSAGE, counting(encodes, cached.tree()));
        assertSame(fromTree, json.message(MESSAGE, counting(encodes, cached.tree())));
        assertEquals(1, encodes.get());
    }

    @Test
    @DisplayName("a resource's first protobuf read is noted, from objects kept with a stored value or without")
    void protobufReadsNoted() throws Exception {
        Cached cached = stored();
        ProtobufReaders readers = new ProtobufReaders();
        SharedFrames without = new SharedFrames(null, 42, readers);
        assertFalse(readers.seen());
        AtomicInteger encodes = new AtomicInteger();
        byte[] walked = without.message(MESSAGE, counting(encodes, cached.tree()));
        assertTrue(readers.seen());
        assertEquals(1, encodes.get(), "no stored value: the tree is written");
        assertArrayEquals(cached.frames().message(MESSAGE, counting(encodes, cached.tree())), walked);
        assertEquals(1, encodes.get());
    }

    @Test
    @DisplayName("an event's frames share the message of the object it carries: made once for watchers and reads")
    void eventSharesObjectsMessage() throws Exception {
        Cached cached = stored();
        SharedFrames object = cached.frames();
        SharedFrames event = SharedFrames.ofEvent(object);
        AtomicInteger encodes = new AtomicInteger();
        byte[] watched = event.objectMessage(MESSAGE, counting(encodes, cached.tree()));
        assertSame(watched, object.message(MESSAGE, counting(encodes, cached.tree())));
        assertEquals(0, encodes.get());
        // a delete's event carries no new object: its own frames
        SharedFrames deleted = SharedFrames.ofDelete(43, new CachedObject("k", cached.tree(), 42, java.util.Map.of(),
                java.util.Map.of(), 0, new SharedFrames()));
        byte[] own = deleted.objectMessage(MESSAGE, counting(encodes, cached.tree()));
        assertSame(own, deleted.objectMessage(MESSAGE, counting(encodes, cached.tree())));
        assertEquals(1, encodes.get());
    }

    @Test
    @DisplayName("an initial event's frames keep nothing of their own, but share the object's kept message")
    void initialEventSharesOnlyTheMessage() throws Exception {
        Cached cached = stored();
        SharedFrames initial = SharedFrames.ofInitialEvent(cached.frames());
        AtomicInteger frames = new AtomicInteger();
        Supplier<byte[]> frame = () -> {
            frames.incrementAndGet();
            return new byte[] {7};
        };
        initial.get("ADDED", frame);
        initial.get("ADDED", frame);
        assertEquals(2, frames.get(), "one watcher sends it: nothing kept for others");
        byte[] bytes = initial.protobuf(cached.tree(), CONFIG_MAP);
        assertArrayEquals(ProtobufCodec.encode(cached.tree(), CONFIG_MAP), bytes);
        AtomicInteger encodes = new AtomicInteger();
        byte[] kept = cached.frames().message(MESSAGE, counting(encodes, cached.tree()));
        assertSame(kept, SharedFrames.ofInitialEvent(cached.frames()).objectMessage(MESSAGE, counting(encodes,
                cached.tree())));
        assertEquals(0, encodes.get(), "the object's message, made from its stored value, kept by the object");
        SharedFrames.Converted view = initial.converted("v2", cached::tree);
        assertTrue(view != initial.converted("v2", cached::tree), "nor converted views");
    }

    @Test
    @DisplayName("a DELETED object is the deleted version's message with the delete's revision, as its tree writes it")
    void deleteSplicesItsRevision() throws Exception {
        for (boolean fromStoredValue : new boolean[] {true, false}) {
            Cached cached = stored();
            SharedFrames previous = fromStoredValue ? cached.frames() : new SharedFrames(null, 42, new ProtobufReaders());
            SharedFrames delete = SharedFrames.ofDelete(57, new CachedObject("k", cached.tree(), 42, java.util.Map.of(),
                    java.util.Map.of(), 0, previous));
            ObjectNode deleted = cached.tree().deepCopy();
            ((ObjectNode) deleted.get("metadata")).put("resourceVersion", "57");
            byte[] bytes = delete.deletedProtobuf(deleted, CONFIG_MAP);
            assertArrayEquals(ProtobufCodec.encode(deleted, CONFIG_MAP), bytes, "from stored value: " + fromStoredValue);
            assertEquals(deleted, ProtobufCodec.decodeStored(bytes));
            AtomicInteger encodes = new AtomicInteger();
            previous.message(MESSAGE, counting(encodes, cached.tree()));
            assertEquals(0, encodes.get(), "the deleted version's message was made once, and kept");
        }
        // frames of an event that is not a delete write the tree
        Cached cached = stored();
        ObjectNode other = cached.tree().deepCopy();
        ((ObjectNode) other.get("metadata")).put("resourceVersion", "58");
        assertArrayEquals(ProtobufCodec.encode(other, CONFIG_MAP),
                SharedFrames.ofEvent(cached.frames()).deletedProtobuf(other, CONFIG_MAP));
    }
}

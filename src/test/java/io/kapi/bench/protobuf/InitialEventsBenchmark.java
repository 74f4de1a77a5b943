package io.kapi.bench.protobuf;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.protobuf.ProtobufCodec;
import io.kapi.storage.cache.ProtobufReaders;
import io.kapi.storage.cache.SharedFrames;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A watch's initial events (from "0", or with {@code sendInitialEvents}, as an informer starts) of
 * {@code pods} cached pods, encoded for one watcher: each an ADDED frame. Initial events are sent by one
 * watcher alone, so nothing of their frames is kept; what can be shared is the object's protobuf message.
 * <ul>
 *   <li>{@code json}: JSON frames, each written from the object's tree (as every JSON watcher does);</li>
 *   <li>{@code protobufTree}: protobuf frames, each written from the object's tree (what every protobuf
 *       watcher did before its frames shared the object's message);</li>
 *   <li>{@code protobufKept}: protobuf frames around the objects' kept messages (made once, from their
 *       stored values, by the first watcher or protobuf read; what every later watcher pays).</li>
 * </ul>
 * Run with {@code bench/protobuf.sh} (beside {@link ListEncodeBenchmark}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgs = {"-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class InitialEventsBenchmark {

    @Param({"5000"})
    public int pods;

    @Param({"true", "false"})
    public boolean managedFields;

    private List<ObjectNode> items;
    private SharedFrames[] frames;

    @Setup
    public void setUp() throws Exception {
        List<ObjectNode> pods = ListEncodeBenchmark.pods(this.pods);
        items = new ArrayList<>(pods.size());
        frames = new SharedFrames[pods.size()];
        ProtobufReaders readers = new ProtobufReaders();
        for (ObjectNode pod : pods) {
            if (!managedFields) {
                ((ObjectNode) pod.get("metadata")).remove("managedFields");
            }
            ObjectNode value = pod.deepCopy();
            long revision = Long.parseLong(((ObjectNode) value.get("metadata")).remove("resourceVersion").asText());
            ProtobufCodec.Stored read = ProtobufCodec.readStored(
                    ProtobufCodec.encode(value, ListEncodeBenchmark.POD_KIND));
            ((ObjectNode) read.object().get("metadata")).put("resourceVersion", Long.toString(revision));
            items.add(read.object()); // the cache's tree, decoded from the stored value
            frames[items.size() - 1] = new SharedFrames(read.message(), revision, readers);
        }
    }

    @Benchmark
    public long json() throws IOException {
        long bytes = 0;
        for (ObjectNode item : items) {
            ObjectNode event = Json.object();
            event.put("type", "ADDED");
            event.set("object", item);
            bytes += Json.MAPPER.writeValueAsBytes(event).length + 1;
        }
        return bytes;
    }

    @Benchmark
    public long protobufTree() {
        long bytes = 0;
        for (ObjectNode item : items) {
            bytes += ProtobufCodec.encodeWatchEvent("ADDED", item, ListEncodeBenchmark.POD_KIND).length;
        }
        return bytes;
    }

    @Benchmark
    public long protobufKept() {
        long bytes = 0;
        for (int i = 0; i < items.size(); i++) {
            SharedFrames initial = SharedFrames.ofInitialEvent(frames[i]);
            bytes += ProtobufCodec.watchFrame("ADDED",
                    initial.protobuf(items.get(i), ListEncodeBenchmark.POD_KIND)).length;
        }
        return bytes;
    }
}

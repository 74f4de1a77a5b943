package io.kapi.bench.storage;

import io.kapi.storage.Storage;
import io.kapi.storage.StorageOptions;
import io.kapi.storage.Watch;
import io.kapi.storage.rocksdb.RocksBackend;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The embedded store's own write ceiling: 8 threads creating keys of a configmap's stored size, each
 * create answered once durable (the group commit's synced write-ahead log), with one watch on the prefix
 * as the server's watch cache keeps. The API's creates ({@code bench/pipeline.sh}, 8 clients) are held
 * to this figure: the store is the floor under every write.
 *
 * <p>Run: {@code bench/store.sh} (JMH options after it, e.g. {@code -f 1 -i 5}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(1)
@Threads(8)
public class StoreWriteBenchmark {

    /** About the size of a small configmap as stored (protobuf, with its managed fields). */
    private static final byte[] VALUE = ("k8s\0" + "x".repeat(396)).getBytes(StandardCharsets.ISO_8859_1);

    private Path dir;
    private Storage storage;
    private Watch watch;
    private final AtomicLong sequence = new AtomicLong();

    @Setup(Level.Trial)
    public void open() throws IOException {
        dir = Files.createTempDirectory("store-bench-");
        storage = RocksBackend.open(dir, StorageOptions.DEFAULT);
        watch = storage.watch("/registry/configmaps/", storage.currentRevision(), event -> { });
    }

    @TearDown(Level.Trial)
    public void close() throws Exception {
        watch.close();
        storage.close();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Benchmark
    public long create() {
        return storage.create("/registry/configmaps/bench/cm-" + sequence.getAndIncrement(), VALUE).modRevision();
    }
}

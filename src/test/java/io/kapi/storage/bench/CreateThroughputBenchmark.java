package io.kapi.storage.bench;

import io.kapi.storage.Storage;
import io.kapi.storage.StorageOptions;
import io.kapi.storage.backends.Storages;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Create throughput with 8 concurrent writers, memory vs embedded. With group commit the embedded
 * store should do far more than one fsync's worth of creates per second. Run:
 * {@code mvn -q test-compile && java -cp target/test-classes:target/classes:$(cat cp.txt)
 * org.openjdk.jmh.Main CreateThroughput}, cp.txt from {@code mvn dependency:build-classpath}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(8)
@Fork(1)
@Warmup(iterations = 1, time = 2)
@Measurement(iterations = 3, time = 3)
public class CreateThroughputBenchmark {

    /** A ConfigMap-sized value. */
    private static final byte[] VALUE = "x".repeat(512).getBytes(StandardCharsets.UTF_8);

    @Param({"memory", "embedded"})
    public String backend;

    private Path dir;
    private Storage storage;
    private final AtomicInteger threads = new AtomicInteger();

    /** Per-thread key counter, so every create is of a fresh key. */
    @State(Scope.Thread)
    public static class Writer {
        String prefix;
        long next;

        @Setup(Level.Trial)
        public void name(CreateThroughputBenchmark bench) {
            prefix = "/registry/configmaps/ns" + bench.threads.incrementAndGet() + "/cm-";
        }
    }

    @Setup(Level.Trial)
    public void open() throws IOException {
        StorageOptions options = StorageOptions.DEFAULT
                .withCompactionCheckInterval(Duration.ofSeconds(1)).withMaxHistoryRevisions(100_000);
        if (backend.equals("memory")) {
            storage = Storages.memory(options);
        } else {
            dir = Files.createTempDirectory("kapi-bench");
            storage = Storages.embedded(dir, options);
        }
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        storage.close();
        if (dir != null) {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    @Benchmark
    public long create(Writer writer) {
        return storage.create(writer.prefix + writer.next++, VALUE).modRevision();
    }
}

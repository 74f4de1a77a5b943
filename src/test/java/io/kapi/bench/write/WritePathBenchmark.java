package io.kapi.bench.write;

import io.kapi.harness.ApiHarness;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * One request through the whole server without sockets (the real filter chain, authorization,
 * admission, the write stages, in-memory storage and the watch caches): a merge patch of a small
 * configmap, a get of it, and a create. The figure to compare between builds is the time per request;
 * transport (TLS, HTTP/2) is left to {@code bench/pipeline.sh}.
 *
 * <p>Run: {@code mvn -q test-compile dependency:build-classpath -Dmdep.includeScope=test
 * -Dmdep.outputFile=target/test-cp.txt && java -cp target/test-classes:target/classes:$(cat
 * target/test-cp.txt) org.openjdk.jmh.Main WritePathBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class WritePathBenchmark {

    private static final int OBJECTS = 100;
    private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";

    private ApiHarness api;
    private long sequence;

    @Setup(Level.Trial)
    public void setUp() {
        api = new ApiHarness();
        for (int i = 0; i < OBJECTS; i++) {
            check(api.post(CONFIGMAPS, "{\"metadata\":{\"name\":\"cm-" + i + "\"},\"data\":{\"k\":\"v\"}}"), 201);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        api.close();
    }

    @Benchmark
    public int mergePatch() {
        long n = sequence++;
        return check(api.patch(CONFIGMAPS + "/cm-" + (n % OBJECTS), "application/merge-patch+json",
                "{\"data\":{\"k\":\"v" + n + "\"}}"), 200);
    }

    @Benchmark
    public int get() {
        return check(api.get(CONFIGMAPS + "/cm-" + (sequence++ % OBJECTS)), 200);
    }

    @Benchmark
    public int create() {
        return check(api.post(CONFIGMAPS, "{\"metadata\":{\"generateName\":\"new-\"},\"data\":{\"k\":\"v\"}}"), 201);
    }

    private static int check(ApiHarness.Reply reply, int code) {
        if (reply.code() != code) {
            throw new IllegalStateException(reply.code() + ": " + reply.text());
        }
        return reply.code();
    }
}

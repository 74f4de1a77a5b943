package io.kapi.bench.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.kapi.machinery.Json;
import java.nio.charset.StandardCharsets;
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
 * What a request's JSON costs on the virtual thread it runs on: a configmap's body parsed to a tree and the
 * tree written back, in a virtual thread of its own (as every request is served), with Jackson's default
 * buffers (one set per thread: a new set for each virtual thread) against the server's shared pool
 * ({@link Json#BUFFERS}). Run: {@code java -cp ... org.openjdk.jmh.Main RecyclerPoolBenchmark -prof gc}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 6, time = 2)
@Fork(1)
public class RecyclerPoolBenchmark {

    @Param({"perThread", "shared"})
    public String buffers;

    private ObjectMapper mapper;
    private byte[] body;

    @Setup
    public void setUp() {
        JsonFactory factory = buffers.equals("shared")
                ? JsonFactory.builder().recyclerPool(Json.BUFFERS).build()
                : JsonFactory.builder().recyclerPool(JsonRecyclerPools.threadLocalPool()).build();
        mapper = JsonMapper.builder(factory).nodeFactory(Json.NODES).build();
        body = ("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"cm-1234\",\"namespace\":\"bench\","
                + "\"uid\":\"6f1c3c4e-8d1b-4c1e-9f0e-2b8d3f6a9c10\",\"resourceVersion\":\"123456\","
                + "\"creationTimestamp\":\"2026-12-07T10:00:00Z\",\"labels\":{\"app\":\"bench\"},"
                + "\"managedFields\":[{\"manager\":\"bench\",\"operation\":\"Update\",\"apiVersion\":\"v1\","
                + "\"time\":\"2026-12-07T10:00:00Z\",\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"f:data\":"
                + "{\".\":{},\"f:key\":{}},\"f:metadata\":{\"f:labels\":{\".\":{},\"f:app\":{}}}}}]},"
                + "\"data\":{\"key\":\"" + "v".repeat(200) + "\"}}").getBytes(StandardCharsets.UTF_8);
    }

    /** One request's JSON: the body read, the object written, on a new virtual thread. */
    @Benchmark
    public int readAndWrite() throws Exception {
        int[] length = new int[1];
        Thread thread = Thread.ofVirtual().start(() -> {
            try {
                JsonNode tree = mapper.readTree(body);
                length[0] = mapper.writeValueAsBytes(tree).length;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        thread.join();
        return length[0];
    }
}

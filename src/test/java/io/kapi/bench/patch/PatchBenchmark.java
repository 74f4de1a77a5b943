package io.kapi.bench.patch;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.machinery.patch.PatchSchema;
import io.kapi.machinery.patch.PatchSchemas;
import io.kapi.machinery.patch.PatchType;
import io.kapi.machinery.patch.Patches;
import io.kapi.machinery.schema.Schemas;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Changing the image of one container of a 50-container Deployment: as {@code kubectl set image} sends it
 * (strategic merge with {@code $setElementOrder}), as a merge patch must send it (the whole containers
 * list), and as a one-operation JSON patch. Each operation parses the body and copies the object, as a
 * PATCH request does.
 *
 * <p>Run: {@code mvn -q test-compile dependency:build-classpath -Dmdep.includeScope=test
 * -Dmdep.outputFile=target/test-cp.txt && java -cp target/test-classes:target/classes:$(cat
 * target/test-cp.txt) org.openjdk.jmh.Main PatchBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PatchBenchmark {

    private static final int CONTAINERS = 50;

    private ObjectNode deployment;
    private PatchSchema schema;
    private byte[] strategic;
    private byte[] merge;
    private byte[] json;

    @Setup
    public void setUp() {
        schema = new PatchSchemas(Schemas.load())
                .forKind(new GroupVersionKind("apps", "v1", "Deployment")).orElseThrow();
        deployment = Json.object();
        deployment.put("apiVersion", "apps/v1").put("kind", "Deployment");
        deployment.putObject("metadata").put("name", "big").put("namespace", "default");
        ObjectNode podSpec = deployment.putObject("spec").putObject("template").putObject("spec");
        ArrayNode containers = podSpec.putArray("containers");
        for (int i = 0; i < CONTAINERS; i++) {
            containers.add(container(i, "img:1"));
        }

        ObjectNode smp = Json.object();
        ObjectNode smpSpec = smp.putObject("spec").putObject("template").putObject("spec");
        ArrayNode order = smpSpec.putArray("$setElementOrder/containers");
        for (int i = 0; i < CONTAINERS; i++) {
            order.addObject().put("name", "c" + i);
        }
        smpSpec.putArray("containers").addObject().put("name", "c25").put("image", "img:2");
        strategic = bytes(smp);

        ObjectNode mp = Json.object();
        ArrayNode all = mp.putObject("spec").putObject("template").putObject("spec").putArray("containers");
        for (int i = 0; i < CONTAINERS; i++) {
            all.add(container(i, i == 25 ? "img:2" : "img:1"));
        }
        merge = bytes(mp);

        json = "[{\"op\":\"replace\",\"path\":\"/spec/template/spec/containers/25/image\",\"value\":\"img:2\"}]"
                .getBytes(StandardCharsets.UTF_8);
    }

    private static ObjectNode container(int i, String image) {
        ObjectNode c = Json.object().put("name", "c" + i).put("image", image);
        ArrayNode env = c.putArray("env");
        for (int e = 0; e < 5; e++) {
            env.addObject().put("name", "E" + e).put("value", "v" + e);
        }
        c.putArray("ports").addObject().put("containerPort", 8000 + i).put("protocol", "TCP");
        c.putObject("resources").putObject("limits").put("cpu", "100m").put("memory", "64Mi");
        return c;
    }

    private static byte[] bytes(ObjectNode node) {
        return node.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Benchmark
    public ObjectNode strategicSetImage() {
        return Patches.apply(PatchType.STRATEGIC_MERGE, deployment, strategic, schema);
    }

    @Benchmark
    public ObjectNode mergeWholeContainerList() {
        return Patches.apply(PatchType.MERGE, deployment, merge, null);
    }

    /** The floor every engine pays: copying the current object so it is never mutated. */
    @Benchmark
    public ObjectNode copyOnly() {
        return deployment.deepCopy();
    }

    @Benchmark
    public ObjectNode jsonPatchReplaceImage() {
        return Patches.apply(PatchType.JSON, deployment, json, null);
    }
}

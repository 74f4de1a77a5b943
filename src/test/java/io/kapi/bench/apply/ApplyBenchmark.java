package io.kapi.bench.apply;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.machinery.apply.ApplyResult;
import io.kapi.machinery.apply.FieldManager;
import io.kapi.machinery.apply.FieldManagers;
import io.kapi.machinery.schema.Schemas;
import java.time.Instant;
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
 * Server-side apply of a Deployment with 50 containers (each with ports, env and resources): create,
 * no-op re-apply, a one-image change, and update tracking of the same change.
 *
 * <p>{@code mvn -q test-compile dependency:build-classpath -Dmdep.outputFile=cp.txt && java -cp
 * target/test-classes:target/classes:$(cat cp.txt) org.openjdk.jmh.Main ApplyBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class ApplyBenchmark {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private FieldManager deployments;
    private ObjectNode config;
    private ObjectNode changedConfig;
    private ObjectNode live;
    private ObjectNode updated;

    @Setup
    public void setUp() {
        deployments = new FieldManagers(Schemas.load()).forKind(new GroupVersionKind("apps", "v1", "Deployment"));
        config = deployment(50, "nginx:1.27");
        changedConfig = config.deepCopy();
        ((ObjectNode) changedConfig.at("/spec/template/spec/containers/25")).put("image", "nginx:1.28");
        live = deployments.apply(null, config, "kubectl", "", false, T0).object();
        ((ObjectNode) live.get("metadata")).put("uid", "6b2f6a8e-0000-4000-8000-000000000001");
        updated = live.deepCopy();
        ((ObjectNode) updated.at("/spec/template/spec/containers/25")).put("image", "nginx:1.28");
    }

    static ObjectNode deployment(int containers, String image) {
        ObjectNode d = Json.object();
        d.put("apiVersion", "apps/v1").put("kind", "Deployment");
        d.putObject("metadata").put("name", "big").put("namespace", "default").putObject("labels").put("app", "big");
        ObjectNode spec = d.putObject("spec");
        spec.put("replicas", 3);
        spec.putObject("selector").putObject("matchLabels").put("app", "big");
        ObjectNode template = spec.putObject("template");
        template.putObject("metadata").putObject("labels").put("app", "big");
        ArrayNode list = template.putObject("spec").putArray("containers");
        for (int i = 0; i < containers; i++) {
            ObjectNode c = list.addObject();
            c.put("name", "c" + i).put("image", image);
            c.putArray("ports").addObject().put("containerPort", 8000 + i).put("name", "p" + i);
            ArrayNode env = c.putArray("env");
            env.addObject().put("name", "INDEX").put("value", Integer.toString(i));
            env.addObject().put("name", "MODE").put("value", "bench");
            ObjectNode res = c.putObject("resources");
            res.putObject("requests").put("cpu", "10m").put("memory", "16Mi");
            res.putObject("limits").put("memory", "32Mi");
            c.putArray("args").add("--port=" + (8000 + i));
        }
        return d;
    }

    @Benchmark
    public ApplyResult applyCreate() {
        return deployments.apply(null, config, "kubectl", "", false, T0);
    }

    @Benchmark
    public ApplyResult reapplyUnchanged() {
        return deployments.apply(live, config, "kubectl", "", false, T0);
    }

    @Benchmark
    public ApplyResult applyOneImageChange() {
        return deployments.apply(live, changedConfig, "kubectl", "", false, T0);
    }

    @Benchmark
    public ObjectNode recordUpdateOneImageChange() {
        return deployments.recordUpdate(live, updated.deepCopy(), "kubectl-edit", "", T0);
    }
}

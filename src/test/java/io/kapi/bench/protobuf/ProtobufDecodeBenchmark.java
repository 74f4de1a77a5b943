package io.kapi.bench.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.protobuf.ProtobufCodec;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
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
 * Decode and encode of a Deployment in protobuf, against JSON parsing of the same object. Run:
 * {@code mvn -q test-compile && java -cp target/test-classes:target/classes:$(cat cp.txt)
 * org.openjdk.jmh.Main ProtobufDecode}, cp.txt from {@code mvn dependency:build-classpath}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class ProtobufDecodeBenchmark {

    private static final GroupVersionKind DEPLOYMENT = new GroupVersionKind("apps", "v1", "Deployment");

    private static final String JSON = """
            {"apiVersion":"apps/v1","kind":"Deployment",
             "metadata":{"name":"web","namespace":"default","creationTimestamp":"2023-11-14T22:13:20Z",
               "labels":{"app":"web","tier":"frontend"},"annotations":{"deployment.kubernetes.io/revision":"1"}},
             "spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},
               "template":{"metadata":{"creationTimestamp":null,"labels":{"app":"web"}},
                 "spec":{"volumes":[{"name":"cfg","configMap":{"name":"c1","defaultMode":420}}],
                   "containers":[{"name":"web","image":"nginx:1.27",
                     "ports":[{"containerPort":80,"protocol":"TCP"}],
                     "env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],
                     "resources":{"limits":{"cpu":"500m","memory":"256Mi"},"requests":{"cpu":"100m","memory":"128Mi"}},
                     "volumeMounts":[{"name":"cfg","readOnly":true,"mountPath":"/etc/cfg"}],
                     "readinessProbe":{"httpGet":{"path":"/healthz","port":"http"},"periodSeconds":5},
                     "terminationMessagePath":"/dev/termination-log","imagePullPolicy":"IfNotPresent"}],
                   "restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst"}},
               "strategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"25%","maxSurge":"25%"}},
               "revisionHistoryLimit":10,"progressDeadlineSeconds":600},
             "status":{}}""";

    private byte[] protobuf;
    private byte[] json;
    private ObjectNode tree;

    @Setup
    public void setUp() throws Exception {
        tree = (ObjectNode) Json.MAPPER.readTree(JSON);
        protobuf = ProtobufCodec.encode(tree, DEPLOYMENT);
        json = Json.MAPPER.writeValueAsBytes(tree);
    }

    @Benchmark
    public ObjectNode decodeProtobuf() {
        return ProtobufCodec.decode(protobuf, DEPLOYMENT);
    }

    @Benchmark
    public byte[] encodeProtobuf() {
        return ProtobufCodec.encode(tree, DEPLOYMENT);
    }

    @Benchmark
    public JsonNode parseJson() throws Exception {
        return Json.MAPPER.readTree(json);
    }
}

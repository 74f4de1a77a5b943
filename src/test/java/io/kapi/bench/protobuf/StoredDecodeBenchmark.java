package io.kapi.bench.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.machinery.protobuf.ParsedDecode;
import io.kapi.machinery.protobuf.ProtobufCodec;
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
 * The watch cache's hot path: a stored value decoded into the compact tree it keeps, protobuf storage
 * ({@link ProtobufCodec#decodeStored}) against JSON storage ({@link Json#COMPACT_READER}), for the
 * configmap and the pod of {@code bench/storage-format.sh}. Run as {@link ProtobufDecodeBenchmark} says,
 * with {@code org.openjdk.jmh.Main StoredDecode}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class StoredDecodeBenchmark {

    private static final String META = """
            "metadata":{"name":"%s","namespace":"bench","uid":"8b1f2a4e-3c6d-4e8f-9a0b-1c2d3e4f5a6b",
             "creationTimestamp":"2026-12-06T01:00:00Z","labels":{"app":"web","pod-template-hash":"5d8f7c9b6"},
             "managedFields":[{"manager":"kubectl","operation":"Update","apiVersion":"v1",
             "time":"2026-12-06T01:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{".":{},"f:key":{}},
             "f:metadata":{"f:labels":{".":{},"f:app":{}}}}}]}""";

    private static final String CONFIGMAP = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
            + META.formatted("cm-1") + ",\"data\":{\"key\":\"value-1\",\"other\":\"0123456789abcdef\"}}";

    private static final String POD = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\"," + META.formatted("pod-1") + """
            ,"spec":{"containers":[{"name":"web","image":"nginx:1.27",
            "ports":[{"name":"http","containerPort":8080,"protocol":"TCP"}],
            "env":[{"name":"MODE","value":"production"},{"name":"POD_NAME","valueFrom":{"fieldRef":
            {"apiVersion":"v1","fieldPath":"metadata.name"}}}],"resources":{"requests":{"cpu":"100m","memory":"128Mi"},
            "limits":{"cpu":"500m","memory":"256Mi"}},"readinessProbe":{"httpGet":{"path":"/healthz",
            "port":"http","scheme":"HTTP"},"periodSeconds":5,"timeoutSeconds":1,"successThreshold":1,
            "failureThreshold":3},"volumeMounts":[{"name":"config","mountPath":"/etc/web"}],
            "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File",
            "imagePullPolicy":"IfNotPresent"}],"volumes":[{"name":"config","configMap":{"name":"web-config",
            "defaultMode":420}}],"restartPolicy":"Always","terminationGracePeriodSeconds":30,
            "dnsPolicy":"ClusterFirst","serviceAccountName":"default","serviceAccount":"default",
            "securityContext":{},"schedulerName":"default-scheduler","enableServiceLinks":true,
            "preemptionPolicy":"PreemptLowerPriority","priority":0},"status":{"phase":"Pending","qosClass":"Burstable"}}""";

    @Param({"configmap", "pod"})
    public String object;

    private byte[] json;
    private byte[] protobuf;
    private GroupVersionKind gvk;

    @Setup
    public void setUp() throws Exception {
        String text = object.equals("pod") ? POD : CONFIGMAP;
        ObjectNode tree = (ObjectNode) Json.MAPPER.readTree(text);
        json = Json.MAPPER.writeValueAsBytes(tree);
        gvk = new GroupVersionKind("", "v1", object.equals("pod") ? "Pod" : "ConfigMap");
        protobuf = ProtobufCodec.encode(tree, gvk);
    }

    @Benchmark
    public JsonNode json() throws Exception {
        return Json.COMPACT_READER.readTree(json);
    }

    /** Read off the wire straight into the tree (WireToJson), as the store decodes. */
    @Benchmark
    public JsonNode protobuf() {
        return ProtobufCodec.decodeStored(protobuf);
    }

    /** The earlier decode, through a parsed DynamicMessage: the baseline of the wire decode. */
    @Benchmark
    public JsonNode protobufParsed() throws Exception {
        return ParsedDecode.decodeStored(protobuf, gvk);
    }
}

package io.kapi.bench.protobuf;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.codec.ResponseTarget;
import io.kapi.endpoint.codec.ResponseEncoder;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.machinery.protobuf.ProtobufCodec;
import io.kapi.machinery.protobuf.StoredMessage;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
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
 * A LIST response of running pods encoded as the server streams it, JSON ({@link ResponseEncoder#writeList})
 * against protobuf ({@link ProtobufCodec#writeList}), into a sink that only counts the bytes. The pods are
 * what a scheduled, running pod holds in kube: spec with defaults, status with conditions and container
 * statuses, managed fields of two managers (or none: {@code managedFields=false}). {@code protobufKept} is a
 * repeated LIST of the watch cache's objects, which keep their protobuf messages from the first (see
 * {@code CachedObject#encodings}); {@code protobufFirst} the first such LIST, which makes and keeps them;
 * {@code protobuf} encodes every item anew in two passes without keeping anything (items not from the
 * cache); {@code protobufStored} a first LIST of objects the cache decoded from protobuf storage, whose
 * messages are made from their stored values. The pods are compact trees, as the cache keeps them, or ordinary ones ({@code compact}). Run by
 * {@code bench/protobuf.sh}, which also prints the sizes ({@link #main}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgs = {"-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class ListEncodeBenchmark {

    static final GroupVersionKind POD_LIST = new GroupVersionKind("", "v1", "PodList");
    static final GroupVersionKind POD_KIND = new GroupVersionKind("", "v1", "Pod");
    private static final Set<String> TYPE_FIELDS = Set.of("apiVersion", "kind");

    static final String POD = """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-7d4b9c8f6-%05d","generateName":"web-7d4b9c8f6-",
              "namespace":"default","uid":"3f1c2d9e-8a7b-4c6d-9e0f-%012d","resourceVersion":"%d",
              "creationTimestamp":"2025-06-01T10:00:00Z","labels":{"app":"web","pod-template-hash":"7d4b9c8f6"},
              "ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-7d4b9c8f6",
                "uid":"0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d","controller":true,"blockOwnerDeletion":true}],
              "managedFields":[
                {"manager":"kube-controller-manager","operation":"Update","apiVersion":"v1","time":"2025-06-01T10:00:00Z",
                 "fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:generateName":{},"f:labels":{".":{},"f:app":{},
                 "f:pod-template-hash":{}},"f:ownerReferences":{".":{},"k:{\\"uid\\":\\"0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d\\"}":{}}},
                 "f:spec":{"f:containers":{"k:{\\"name\\":\\"web\\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},
                 "f:ports":{".":{},"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{},"f:protocol":{}}},
                 "f:resources":{".":{},"f:limits":{".":{},"f:cpu":{},"f:memory":{}},"f:requests":{".":{},"f:cpu":{},"f:memory":{}}},
                 "f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:enableServiceLinks":{},
                 "f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}},
                {"manager":"kubelet","operation":"Update","apiVersion":"v1","time":"2025-06-01T10:00:05Z",
                 "fieldsType":"FieldsV1","subresource":"status","fieldsV1":{"f:status":{"f:conditions":{
                 "k:{\\"type\\":\\"Ready\\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}}},
                 "f:containerStatuses":{},"f:hostIP":{},"f:phase":{},"f:podIP":{},"f:podIPs":{},"f:startTime":{}}}}]},
             "spec":{"volumes":[{"name":"kube-api-access-x7k2p","projected":{"sources":[
                 {"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},
                 {"configMap":{"name":"kube-root-ca.crt","items":[{"key":"ca.crt","path":"ca.crt"}]}},
                 {"downwardAPI":{"items":[{"path":"namespace","fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"}}]}}],
                 "defaultMode":420}}],
               "containers":[{"name":"web","image":"nginx:1.27","ports":[{"containerPort":80,"protocol":"TCP"}],
                 "resources":{"limits":{"cpu":"500m","memory":"256Mi"},"requests":{"cpu":"100m","memory":"128Mi"}},
                 "volumeMounts":[{"name":"kube-api-access-x7k2p","readOnly":true,
                   "mountPath":"/var/run/secrets/kubernetes.io/serviceaccount"}],
                 "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File",
                 "imagePullPolicy":"IfNotPresent"}],
               "restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst",
               "serviceAccountName":"default","serviceAccount":"default","nodeName":"node-%d","securityContext":{},
               "schedulerName":"default-scheduler","tolerations":[
                 {"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300},
                 {"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}],
               "priority":0,"enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority"},
             "status":{"phase":"Running","conditions":[
                 {"type":"PodReadyToStartContainers","status":"True","lastProbeTime":null,"lastTransitionTime":"2025-06-01T10:00:03Z"},
                 {"type":"Initialized","status":"True","lastProbeTime":null,"lastTransitionTime":"2025-06-01T10:00:00Z"},
                 {"type":"Ready","status":"True","lastProbeTime":null,"lastTransitionTime":"2025-06-01T10:00:05Z"},
                 {"type":"ContainersReady","status":"True","lastProbeTime":null,"lastTransitionTime":"2025-06-01T10:00:05Z"},
                 {"type":"PodScheduled","status":"True","lastProbeTime":null,"lastTransitionTime":"2025-06-01T10:00:00Z"}],
               "hostIP":"10.0.0.%d","hostIPs":[{"ip":"10.0.0.%d"}],"podIP":"10.244.1.%d","podIPs":[{"ip":"10.244.1.%d"}],
               "startTime":"2025-06-01T10:00:00Z",
               "containerStatuses":[{"name":"web","state":{"running":{"startedAt":"2025-06-01T10:00:04Z"}},"lastState":{},
                 "ready":true,"restartCount":0,"image":"docker.io/library/nginx:1.27",
                 "imageID":"docker.io/library/nginx@sha256:6784fb0834aa7dbbe12e3d7471e69c290df3e6ba810dc38b34ae33d3c1c05f7d",
                 "containerID":"containerd://9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b","started":true}],
               "qosClass":"Burstable"}}""";

    @Param({"5000"})
    public int pods;

    @Param({"true", "false"})
    public boolean managedFields;

    /**
     * Whether the pods are trees as the watch cache keeps them ({@link Json#COMPACT_READER}: each object's
     * fields in one array) or ordinary trees (a {@code LinkedHashMap} per object), as a request body is.
     */
    @Param({"true", "false"})
    public boolean compact;

    private List<ObjectNode> items;
    /** The items' messages in their stored values (protobuf storage, kube's and Kapi's default), and their revisions. */
    private StoredMessage[] stored;
    private long[] revisions;
    private ObjectNode envelope;
    private ProtobufCodec.ItemEncodings kept;

    @Setup
    public void setUp() throws Exception {
        items = pods(pods);
        if (!managedFields) {
            items.forEach(p -> ((ObjectNode) p.get("metadata")).remove("managedFields"));
        }
        if (compact) {
            List<ObjectNode> kept = new ArrayList<>(items.size());
            for (ObjectNode p : items) {
                kept.add((ObjectNode) Json.COMPACT_READER.readTree(p.toString()));
            }
            items = kept;
        }
        stored = new StoredMessage[items.size()];
        revisions = new long[items.size()];
        for (int i = 0; i < items.size(); i++) {
            ObjectNode value = items.get(i).deepCopy();
            ObjectNode meta = (ObjectNode) value.get("metadata");
            revisions[i] = Long.parseLong(meta.remove("resourceVersion").asText()); // storage leaves it out
            stored[i] = ProtobufCodec.readStored(ProtobufCodec.encode(value, POD_KIND)).message();
        }
        byte[][] messages = new byte[items.size()][];
        kept = (index, kind, encoder) -> {
            byte[] m = messages[index];
            return m != null ? m : (messages[index] = encoder.get());
        };
        envelope = (ObjectNode) Json.MAPPER.readTree("{\"kind\":\"PodList\",\"apiVersion\":\"v1\","
                + "\"metadata\":{\"resourceVersion\":\"123456\"}}");
    }

    static List<ObjectNode> pods(int n) throws IOException {
        List<ObjectNode> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add((ObjectNode) Json.MAPPER.readTree(POD.formatted(i, i, 1000 + i, i % 100, i % 250, i % 250,
                    i % 250, i % 250)));
        }
        return out;
    }

    @Benchmark
    public long json() throws IOException {
        Counting out = new Counting();
        ResponseEncoder.writeList(envelope, items, TYPE_FIELDS, ResponseTarget.JSON, out, ProtobufCodec.ItemEncodings.NONE);
        return out.bytes;
    }

    @Benchmark
    public long protobuf() throws IOException {
        Counting out = new Counting();
        ProtobufCodec.writeList(envelope, items, POD_LIST, out, i -> { }, ProtobufCodec.ItemEncodings.NONE);
        return out.bytes;
    }

    /** A first LIST of cached objects: each item's message made (and kept), then the list written. */
    @Benchmark
    public long protobufFirst() throws IOException {
        Counting out = new Counting();
        byte[][] messages = new byte[items.size()][];
        ProtobufCodec.writeList(envelope, items, POD_LIST, out, i -> { },
                (index, kind, encoder) -> messages[index] = encoder.get());
        return out.bytes;
    }

    /**
     * A first LIST of cached objects that were stored in protobuf (the default): each item's message made
     * from its stored value with its resourceVersion spliced in (as {@code SharedFrames#message} makes it),
     * then the list written.
     */
    @Benchmark
    public long protobufStored() throws IOException {
        Counting out = new Counting();
        byte[][] messages = new byte[items.size()][];
        ProtobufCodec.writeList(envelope, items, POD_LIST, out, i -> { }, (index, kind, encoder) -> {
            byte[] m = stored[index].withResourceVersion(Long.toString(revisions[index]));
            return messages[index] = m != null ? m : encoder.get();
        });
        return out.bytes;
    }

    @Benchmark
    public long protobufKept() throws IOException {
        Counting out = new Counting();
        ProtobufCodec.writeList(envelope, items, POD_LIST, out, i -> { }, kept);
        return out.bytes;
    }

    /** Prints the size of each encoding of the list. */
    public static void main(String[] args) throws Exception {
        for (boolean managed : new boolean[] {true, false}) {
            ListEncodeBenchmark b = new ListEncodeBenchmark();
            b.pods = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
            b.managedFields = managed;
            b.setUp();
            long json = b.json();
            long protobuf = b.protobuf();
            System.out.printf("%d pods, managedFields=%s: JSON %,d bytes, protobuf %,d bytes (%.2f x smaller); "
                    + "the official classes (client-java-proto) write the same list in %,d bytes%n",
                    b.pods, managed, json, protobuf, (double) json / protobuf, b.official());
        }
    }

    /**
     * The list's size as the Kubernetes protobuf definitions' generated classes write it (prefix and
     * envelope included): this encoding's own size for these pods, whatever the writer.
     */
    private long official() throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        ProtobufCodec.writeList(envelope, items, POD_LIST, out, i -> { }, ProtobufCodec.ItemEncodings.NONE);
        byte[] ours = out.toByteArray();
        io.kubernetes.client.proto.Runtime.Unknown unknown = io.kubernetes.client.proto.Runtime.Unknown.parseFrom(
                java.util.Arrays.copyOfRange(ours, 4, ours.length));
        byte[] raw = io.kubernetes.client.proto.V1.PodList.parseFrom(unknown.getRaw()).toByteArray();
        return 4 + unknown.toBuilder().setRaw(com.google.protobuf.ByteString.copyFrom(raw)).build().getSerializedSize();
    }

    /** Counts what is written, and keeps nothing. */
    static final class Counting extends OutputStream {
        long bytes;

        @Override
        public void write(int b) {
            bytes++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            bytes += len;
        }
    }
}

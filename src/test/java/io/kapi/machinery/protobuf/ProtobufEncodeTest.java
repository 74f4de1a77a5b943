package io.kapi.machinery.protobuf;

import static io.kapi.machinery.protobuf.ProtobufDecodeTest.assertTree;
import static io.kapi.machinery.protobuf.ProtobufDecodeTest.tree;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersionKind;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Apiextensions;
import io.kubernetes.client.proto.V1Apps;
import java.util.Arrays;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ProtobufEncodeTest {

    private static Runtime.Unknown unwrap(byte[] body) throws Exception {
        assertArrayEquals(new byte[] {0x6b, 0x38, 0x73, 0x00}, Arrays.copyOf(body, 4));
        return Runtime.Unknown.parseFrom(Arrays.copyOfRange(body, 4, body.length));
    }

    @Test
    @DisplayName("an encoded ConfigMap is the envelope client-go reads, with the typed message inside")
    void configMap() throws Exception {
        JsonNode json = tree("""
                {"apiVersion":"v1","kind":"ConfigMap",
                 "metadata":{"name":"c1","namespace":"default","uid":"u-1","resourceVersion":"7",
                   "creationTimestamp":"2024-02-03T04:05:06Z","labels":{"a":"b"}},
                 "data":{"k":"v"},"binaryData":{"bin":"AAEC/w=="}}""");
        Runtime.Unknown unk = unwrap(ProtobufCodec.encode(json, ProtobufDecodeTest.CONFIG_MAP));
        assertEquals("v1", unk.getTypeMeta().getApiVersion());
        assertEquals("ConfigMap", unk.getTypeMeta().getKind());
        assertTrue(unk.hasContentEncoding() && unk.hasContentType());
        V1.ConfigMap cm = V1.ConfigMap.parseFrom(unk.getRaw());
        assertEquals("c1", cm.getMetadata().getName());
        assertEquals("7", cm.getMetadata().getResourceVersion());
        assertEquals(1706933106L, cm.getMetadata().getCreationTimestamp().getSeconds());
        assertEquals("b", cm.getMetadata().getLabelsMap().get("a"));
        assertEquals("v", cm.getDataMap().get("k"));
        assertArrayEquals(new byte[] {0, 1, 2, (byte) 255}, cm.getBinaryDataMap().get("bin").toByteArray());
    }

    @Test
    @DisplayName("a Deployment survives JSON -> protobuf -> JSON unchanged")
    void deploymentRoundTrip() {
        JsonNode json = tree(ProtobufDecodeTest.DEPLOYMENT_JSON);
        byte[] body = ProtobufCodec.encode(json, ProtobufDecodeTest.DEPLOYMENT);
        assertTree(ProtobufDecodeTest.DEPLOYMENT_JSON, ProtobufCodec.decode(body, ProtobufDecodeTest.DEPLOYMENT));
    }

    @Test
    @DisplayName("an encoded Deployment's int-or-string and quantities read back through the generated classes")
    void deploymentTyped() throws Exception {
        byte[] body = ProtobufCodec.encode(tree(ProtobufDecodeTest.DEPLOYMENT_JSON), ProtobufDecodeTest.DEPLOYMENT);
        V1Apps.Deployment d = V1Apps.Deployment.parseFrom(unwrap(body).getRaw());
        assertEquals(ProtobufDecodeTest.deploymentMessage().getSpec().getStrategy(), d.getSpec().getStrategy());
        assertTrue(d.getSpec().hasReplicas());
        V1.Container c = d.getSpec().getTemplate().getSpec().getContainers(0);
        assertEquals("500m", c.getResources().getLimitsMap().get("cpu").getString());
        assertEquals("http", c.getReadinessProbe().getHandler().getHttpGet().getPort().getStrVal());
        assertEquals("c1", d.getSpec().getTemplate().getSpec().getVolumes(0).getVolumeSource().getConfigMap()
                .getLocalObjectReference().getName());
    }

    @Test
    @DisplayName("a list encodes as its List kind with items")
    void list() throws Exception {
        JsonNode json = tree("""
                {"apiVersion":"v1","kind":"ConfigMapList","metadata":{"resourceVersion":"9","continue":"x"},
                 "items":[{"metadata":{"name":"a"}},{"metadata":{"name":"b"}}]}""");
        Runtime.Unknown unk = unwrap(ProtobufCodec.encode(json, new GroupVersionKind("", "v1", "ConfigMapList")));
        V1.ConfigMapList list = V1.ConfigMapList.parseFrom(unk.getRaw());
        assertEquals("9", list.getMetadata().getResourceVersion());
        assertEquals("x", list.getMetadata().getContinue());
        assertEquals("b", list.getItems(1).getMetadata().getName());
    }

    @Test
    @DisplayName("a Status error encodes as v1 Status, the metav1 message")
    void status() throws Exception {
        JsonNode json = tree("""
                {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
                 "message":"configmaps \\"x\\" not found","reason":"NotFound",
                 "details":{"name":"x","kind":"configmaps"},"code":404}""");
        Runtime.Unknown unk = unwrap(ProtobufCodec.encode(json, new GroupVersionKind("", "v1", "Status")));
        Meta.Status s = Meta.Status.parseFrom(unk.getRaw());
        assertEquals("NotFound", s.getReason());
        assertEquals(404, s.getCode());
        assertEquals("x", s.getDetails().getName());
    }

    @Test
    @DisplayName("a watch frame is a length, then a bare WatchEvent whose object is a full envelope")
    void watchEvent() throws Exception {
        JsonNode json = tree("""
                {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c1","resourceVersion":"5"}}""");
        byte[] frame = ProtobufCodec.encodeWatchEvent("ADDED", json, ProtobufDecodeTest.CONFIG_MAP);
        int length = java.nio.ByteBuffer.wrap(frame).getInt();
        assertEquals(frame.length - 4, length);
        Meta.WatchEvent event = Meta.WatchEvent.parseFrom(Arrays.copyOfRange(frame, 4, frame.length));
        assertEquals("ADDED", event.getType());
        byte[] object = event.getObject().getRaw().toByteArray();
        assertTree(json.toString(), ProtobufCodec.decode(object, ProtobufDecodeTest.CONFIG_MAP));
    }

    @Test
    @DisplayName("PartialObjectMetadataList is supported; Table and custom resources are not")
    void supported() {
        assertTrue(ProtobufCodec.supports(new GroupVersionKind("meta.k8s.io", "v1", "PartialObjectMetadataList")));
        assertTrue(ProtobufCodec.supports(new GroupVersionKind("resource.k8s.io", "v1", "ResourceClaim")));
        assertTrue(ProtobufCodec.supports(new GroupVersionKind("apiextensions.k8s.io", "v1", "CustomResourceDefinition")));
        assertFalse(ProtobufCodec.supports(new GroupVersionKind("meta.k8s.io", "v1", "Table")));
        assertFalse(ProtobufCodec.supports(new GroupVersionKind("example.com", "v1", "Widget")));
        assertThrows(IllegalArgumentException.class,
                () -> ProtobufCodec.encode(tree("{}"), new GroupVersionKind("example.com", "v1", "Widget")));
    }

    @Test
    @DisplayName("a CRD schema keeps $ref, x-kubernetes-* names, items, additionalProperties and defaults")
    void crdSchema() throws Exception {
        String crd = """
                {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
                 "metadata":{"name":"widgets.example.com"},
                 "spec":{"group":"example.com","scope":"Namespaced",
                   "names":{"plural":"widgets","kind":"Widget"},
                   "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{
                     "type":"object","x-kubernetes-preserve-unknown-fields":true,
                     "properties":{
                       "spec":{"type":"object","properties":{
                         "size":{"type":"integer","default":3,"maximum":10,"x-kubernetes-int-or-string":true},
                         "tags":{"type":"array","items":{"type":"string"},"x-kubernetes-list-type":"set"},
                         "labels":{"type":"object","additionalProperties":{"type":"string"}},
                         "open":{"type":"object","additionalProperties":false},
                         "ratio":{"type":"number","multipleOf":0.5}}}},
                     "x-kubernetes-validations":[{"rule":"self.spec.size < 10","message":"too big"}]}}}]}}""";
        GroupVersionKind gvk = new GroupVersionKind("apiextensions.k8s.io", "v1", "CustomResourceDefinition");
        byte[] body = ProtobufCodec.encode(tree(crd), gvk);
        V1Apiextensions.CustomResourceDefinition typed =
                V1Apiextensions.CustomResourceDefinition.parseFrom(unwrap(body).getRaw());
        V1Apiextensions.JSONSchemaProps root = typed.getSpec().getVersions(0).getSchema().getOpenAPIV3Schema();
        assertTrue(root.getXKubernetesPreserveUnknownFields());
        assertEquals("3", root.getPropertiesMap().get("spec").getPropertiesMap().get("size").getDefault().getRaw()
                .toStringUtf8());
        ObjectNode back = ProtobufCodec.decode(body, gvk);
        assertTree(crd, back);
    }
}

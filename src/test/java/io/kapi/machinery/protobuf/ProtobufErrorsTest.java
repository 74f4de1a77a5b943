package io.kapi.machinery.protobuf;

import static io.kapi.machinery.protobuf.ProtobufDecodeTest.CONFIG_MAP;
import static io.kapi.machinery.protobuf.ProtobufDecodeTest.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.ByteString;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Status;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.V1;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ProtobufErrorsTest {

    private static String message(byte[] body) {
        ApiException e = assertThrows(ApiException.class, () -> ProtobufCodec.decode(body, CONFIG_MAP));
        assertEquals(400, e.code());
        return e.getMessage();
    }

    @Test
    @DisplayName("an empty body is 'empty data'")
    void empty() {
        assertEquals("the object provided is unrecognized (must be of type ConfigMap): empty data (<empty>)",
                message(new byte[0]));
    }

    @Test
    @DisplayName("a JSON body sent as protobuf lacks the prefix")
    void noPrefix() {
        assertEquals("the object provided is unrecognized (must be of type ConfigMap): provided data does not "
                        + "appear to be a protobuf message, expected prefix [107 56 115 0] ({})",
                message("{}".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    @DisplayName("the prefix alone is 'empty body'")
    void prefixOnly() {
        assertEquals("the object provided is unrecognized (must be of type ConfigMap): empty body (6b387300)",
                message(new byte[] {0x6b, 0x38, 0x73, 0x00}));
    }

    @Test
    @DisplayName("a cut envelope is 'unexpected EOF'")
    void truncatedEnvelope() {
        byte[] body = envelope("v1", "ConfigMap", V1.ConfigMap.getDefaultInstance());
        String m = message(Arrays.copyOf(body, 8));
        assertEquals("the object provided is unrecognized (must be of type ConfigMap): unexpected EOF ("
                + java.util.HexFormat.of().formatHex(body, 0, 8) + ")", m);
    }

    @Test
    @DisplayName("a cut object is 'ConfigMap in version \"v1\" cannot be handled as a ConfigMap: unexpected EOF'")
    void truncatedObject() {
        byte[] raw = V1.ConfigMap.newBuilder().setMetadata(Meta.ObjectMeta.newBuilder().setName("abcdef")).build()
                .toByteArray();
        byte[] body = envelopeWithRaw(Arrays.copyOf(raw, raw.length - 2));
        assertEquals("ConfigMap in version \"v1\" cannot be handled as a ConfigMap: unexpected EOF", message(body));
    }

    @Test
    @DisplayName("a kind without a protobuf message is not registered, worded as kube-apiserver's scheme")
    void unknownKind() {
        byte[] body = envelope("example.com/v1", "Widget", V1.ConfigMap.getDefaultInstance());
        assertEquals("Widget in version \"v1\" cannot be handled as a ConfigMap: no kind \"Widget\" is registered "
                + "for version \"example.com/v1\" in scheme \"pkg/api/legacyscheme/scheme.go:30\"", message(body));
    }

    @Test
    @DisplayName("embedded JSON that does not parse is a bad request, not a server error")
    void badFieldsV1() {
        V1.ConfigMap cm = V1.ConfigMap.newBuilder().setMetadata(Meta.ObjectMeta.newBuilder()
                .addManagedFields(Meta.ManagedFieldsEntry.newBuilder()
                        .setFieldsV1(Meta.FieldsV1.newBuilder().setRaw(ByteString.copyFromUtf8("{nope"))))).build();
        String m = message(envelope("v1", "ConfigMap", cm));
        assertEquals(true, m.startsWith("ConfigMap in version \"v1\" cannot be handled as a ConfigMap: embedded JSON"), m);
        assertEquals("BadRequest", Status.of(assertThrows(ApiException.class,
                () -> ProtobufCodec.decode(envelope("v1", "ConfigMap", cm), CONFIG_MAP))).path("reason").asText());
    }

    private static byte[] envelopeWithRaw(byte[] raw) {
        byte[] unk = io.kubernetes.client.proto.Runtime.Unknown.newBuilder()
                .setTypeMeta(io.kubernetes.client.proto.Runtime.TypeMeta.newBuilder().setApiVersion("v1")
                        .setKind("ConfigMap"))
                .setRaw(ByteString.copyFrom(raw)).build().toByteArray();
        byte[] body = new byte[unk.length + 4];
        System.arraycopy(new byte[] {0x6b, 0x38, 0x73, 0x00}, 0, body, 0, 4);
        System.arraycopy(unk, 0, body, 4, unk.length);
        return body;
    }
}

package io.kapi.endpoint.handlers;

import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.codec.Decoded;
import io.kapi.endpoint.codec.Format;
import io.kapi.endpoint.codec.MediaType;
import io.kapi.endpoint.codec.RequestDecoder;
import io.kapi.machinery.protobuf.ProtobufCodec;
import io.kapi.machinery.DeepStack;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.validation.SchemaValidator;
import java.util.List;

/**
 * Reads request bodies in the formats kube-apiserver accepts for built-in kinds: JSON, YAML, and
 * Kubernetes protobuf (what kubectl's typed clients send, e.g. {@code kubectl create configmap}).
 * A protobuf body for a kind without a protobuf message (custom resources) is 415, as in kube.
 *
 * <p>Every body is decoded within the {@linkplain io.kapi.machinery.DecodeBudget depth and size budget},
 * then, for {@link #decode}, its JSON types are checked against the kind's schema as Go's typed decoding
 * checks them, so a handler never sees {@code "metadata": "x"} or {@code "spec": 1}: that is 400
 * {@code TokenRequest in version "v1" cannot be handled as a TokenRequest: json: cannot unmarshal string
 * into Go struct field TokenRequest.spec of type v1.TokenRequestSpec}. The object a write stores is only
 * {@link #read}: the store's decode stage makes the same checks in the write's one schema walk.
 */
public final class KubeBodyDecoder implements BodyDecoder {

    private final SchemaValidator types;

    /** @param types checks decoded bodies' JSON types against their kinds' schemas */
    public KubeBodyDecoder(SchemaValidator types) {
        this.types = types;
    }

    @Override
    public Decoded decode(RestRequest request, GroupVersionKind expected) {
        return checked(read(request, expected), expected);
    }

    @Override
    public Decoded read(RestRequest request, GroupVersionKind expected) {
        String contentType = request.header("Content-Type");
        MediaType media = contentType == null || contentType.isBlank() ? null : MediaType.parse(contentType);
        if (media != null && media.essence().equals(ProtobufCodec.MEDIA_TYPE) && ProtobufCodec.supports(expected)) {
            byte[] body = RequestDecoder.readLimited(request.body(), RequestDecoder.MAX_BODY_BYTES);
            return new Decoded(ProtobufCodec.decode(body, expected), List.of(), Format.JSON);
        }
        return RequestDecoder.decode(contentType, request.body(), expected);
    }

    @Override
    public Decoded decodeApplied(byte[] data, GroupVersionKind expected) {
        return checked(RequestDecoder.decodeApplied(data), expected);
    }

    /** {@code decoded}, its types checked (a walk by the kind's schema, on a deep stack for a deep body). */
    private Decoded checked(Decoded decoded, GroupVersionKind expected) {
        return DeepStack.callIfDeep(() -> {
            types.checkTypes(expected, decoded.object());
            return decoded;
        }, decoded.object());
    }
}

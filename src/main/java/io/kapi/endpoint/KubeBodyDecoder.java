package io.kapi.endpoint;

import io.kapi.endpoint.codec.Decoded;
import io.kapi.endpoint.codec.Format;
import io.kapi.endpoint.codec.MediaType;
import io.kapi.endpoint.codec.RequestDecoder;
import io.kapi.endpoint.codec.protobuf.ProtobufCodec;
import io.kapi.endpoint.handlers.BodyDecoder;
import io.kapi.machinery.GroupVersionKind;
import java.util.List;

/**
 * Reads request bodies in the formats kube-apiserver accepts for built-in kinds: JSON, YAML, and
 * Kubernetes protobuf (what kubectl's typed clients send, e.g. {@code kubectl create configmap}).
 * A protobuf body for a kind without a protobuf message (custom resources) is 415, as in kube.
 */
public final class KubeBodyDecoder implements BodyDecoder {

    @Override
    public Decoded decode(RestRequest request, GroupVersionKind expected) {
        String contentType = request.header("Content-Type");
        MediaType media = contentType == null || contentType.isBlank() ? null : MediaType.parse(contentType);
        if (media != null && media.essence().equals(ProtobufCodec.MEDIA_TYPE) && ProtobufCodec.supports(expected)) {
            byte[] body = RequestDecoder.readLimited(request.body(), RequestDecoder.MAX_BODY_BYTES);
            return new Decoded(ProtobufCodec.decode(body, expected), List.of(), Format.JSON);
        }
        return RequestDecoder.decode(contentType, request.body(), expected);
    }
}

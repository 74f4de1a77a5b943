package io.kapi.server.filter;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.codec.Format;
import io.kapi.endpoint.codec.Negotiation;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import io.kapi.machinery.Status;
import io.kapi.machinery.protobuf.ProtobufCodec;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Set;

/**
 * A {@code metav1.Status} response for an {@link ApiException}, with the exception's code: in protobuf when
 * the request's Accept header negotiates protobuf (client-go's protobuf clients read their errors so, as
 * kube-apiserver's {@code ErrorNegotiated} writes them), else JSON. A 406 is always JSON: the client's
 * Accept header is what could not be served. JSON is written as every JSON body kube-apiserver writes (Go's
 * {@code json.Encoder}): a newline after the object.
 */
public final class StatusResponses {

    private static final GroupVersionKind STATUS = new GroupVersionKind("", "v1", "Status");

    private StatusResponses() {
    }

    /** The Status as JSON. */
    public static RestResponse of(ApiException e) {
        try {
            byte[] json = Json.MAPPER.writeValueAsBytes(Status.of(e));
            byte[] body = Arrays.copyOf(json, json.length + 1);
            body[json.length] = '\n';
            return RestResponse.bytes(e.code(), "application/json", body);
        } catch (JsonProcessingException x) {
            throw new UncheckedIOException(x);
        }
    }

    /** The Status in the format {@code accept} (the request's Accept header, may be null) negotiates. */
    public static RestResponse of(ApiException e, String accept) {
        if (e.code() != 406 && protobuf(accept)) {
            ObjectNode status = Status.of(e);
            return RestResponse.bytes(e.code(), ProtobufCodec.MEDIA_TYPE, ProtobufCodec.encode(status, STATUS));
        }
        return of(e);
    }

    private static boolean protobuf(String accept) {
        if (accept == null || !accept.contains("protobuf")) {
            return false;
        }
        try {
            return Negotiation.negotiate(accept, Set.of(), true).format() == Format.PROTOBUF;
        } catch (ApiException notAcceptable) {
            return false;
        }
    }
}

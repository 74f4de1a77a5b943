package io.kapi.server.filter;

import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.Status;
import java.io.UncheckedIOException;
import java.util.Arrays;
import com.fasterxml.jackson.core.JsonProcessingException;

/**
 * A {@code metav1.Status} response for an {@link ApiException}, as JSON with the exception's code and, as
 * every JSON body kube-apiserver writes (Go's {@code json.Encoder}), a newline after the object.
 */
public final class StatusResponses {

    private StatusResponses() {
    }

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
}

package io.kapi.server.filter;

import io.kapi.endpoint.RestResponse;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.Status;
import java.io.UncheckedIOException;
import com.fasterxml.jackson.core.JsonProcessingException;

/** A {@code metav1.Status} response for an {@link ApiException}, as JSON with the exception's code. */
public final class StatusResponses {

    private StatusResponses() {
    }

    public static RestResponse of(ApiException e) {
        try {
            byte[] body = Json.MAPPER.writeValueAsBytes(Status.of(e));
            return RestResponse.bytes(e.code(), "application/json", body);
        } catch (JsonProcessingException x) {
            throw new UncheckedIOException(x);
        }
    }
}

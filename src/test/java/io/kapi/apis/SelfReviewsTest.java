package io.kapi.apis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kapi.harness.ApiHarness;
import io.kapi.harness.InMemoryApi;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SelfReviewsTest {

    @InMemoryApi
    private static ApiHarness api;

    @ParameterizedTest
    @ValueSource(strings = {"/apis/authentication.k8s.io/v1/selfsubjectreviews",
            "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews"})
    @DisplayName("a review whose metadata is null is answered as one without metadata, as Go decodes it (a fuzzer's 500)")
    void nullMetadata(String path) {
        ApiHarness.Reply reply = api.call("POST", path, "application/json", "{\"metadata\":null,\"spec\":{}}");
        assertEquals(201, reply.code(), reply.text());
        assertEquals("{\"creationTimestamp\":null}", reply.body().path("metadata").toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"x\"", "[]", "7"})
    @DisplayName("metadata that is no object is kube's 400 decoding error")
    void metadataOfAnotherType(String metadata) {
        ApiHarness.Reply reply = api.call("POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews",
                "application/json", "{\"metadata\":" + metadata + "}");
        assertEquals(400, reply.code(), reply.text());
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"metadata\":null,\"spec\":{\"resourceAttributes\":{\"verb\":\"get\",\"resource\":\"pods\"}}}"})
    @DisplayName("an access review with null metadata is answered too")
    void accessReviewNullMetadata(String body) {
        ApiHarness.Reply reply = api.call("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
                "application/json", body);
        assertEquals(201, reply.code(), reply.text());
        assertEquals(true, reply.body().path("status").path("allowed").asBoolean());
    }
}

package io.kapi.apis.subresources;

import com.fasterxml.jackson.databind.JsonNode;
import io.kapi.assembly.ApiAssembly;
import io.kapi.harness.ApiHarness;

/**
 * The whole API in memory, called with plain requests: what the subresource tests drive. A test class gets one
 * as an {@code @InMemoryApi static Api api} field, made around the harness the extension makes and closes.
 */
final class Api {

    record Reply(int code, JsonNode body, String text) {
    }

    private final ApiHarness harness;

    Api(ApiHarness harness) {
        this.harness = harness;
    }

    ApiAssembly assembly() {
        return harness.assembly();
    }

    Reply post(String path, String json) {
        return call("POST", path, "application/json", json);
    }

    Reply put(String path, String json) {
        return call("PUT", path, "application/json", json);
    }

    Reply get(String path) {
        return call("GET", path, null, "");
    }

    Reply call(String method, String path, String contentType, String body) {
        ApiHarness.Reply r = harness.call(method, path, contentType, body);
        return new Reply(r.code(), r.body(), r.text());
    }

    /** As {@link #call(String, String, String, String)}, with an Accept header of its own. */
    Reply call(String method, String path, String contentType, String accept, String body) {
        ApiHarness.Reply r = harness.call(ApiHarness.ADMIN, method, path, contentType, accept, body);
        return new Reply(r.code(), r.body(), r.text());
    }

    /** Creates an object from YAML-ish JSON at a collection path; fails the test on error. */
    JsonNode create(String collection, String json) {
        Reply reply = post(collection, json);
        if (reply.code() != 201) {
            throw new AssertionError("create failed: " + reply.text());
        }
        return reply.body();
    }
}

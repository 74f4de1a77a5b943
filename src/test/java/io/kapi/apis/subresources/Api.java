package io.kapi.apis.subresources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.apis.SystemNamespaces;
import io.kapi.assembly.ApiAssembly;
import io.kapi.assembly.ApiConfig;
import io.kapi.authn.UserInfo;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.health.PostStartHook;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.Status;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The whole API in memory, called with plain requests: what the subresource tests drive. */
final class Api implements AutoCloseable {

    record Reply(int code, JsonNode body, String text) {
    }

    private final ApiAssembly assembly;

    Api() {
        assembly = ApiAssembly.create(new ApiConfig(Path.of("target/unused"), "memory", List.of(), "10.96.0.0/12", "30000-32767",
                "127.0.0.1", 6443, false, Duration.ofHours(1), null));
        for (PostStartHook hook : assembly.hooks()) {
            if (hook instanceof SystemNamespaces) {
                try {
                    hook.run();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        }
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
        return call(method, path, contentType, contentType == null ? null : "application/json", body);
    }

    Reply call(String method, String path, String contentType, String accept, String body) {
        Map<String, List<String>> headers = new java.util.HashMap<>();
        if (contentType != null) {
            headers.put("content-type", List.of(contentType));
        }
        if (accept != null) {
            headers.put("accept", List.of(accept));
        }
        String[] parts = path.split("\\?", 2);
        Map<String, List<String>> query = parts.length == 1 ? Map.of()
                : Map.of(parts[1].split("=")[0], List.of(parts[1].split("=")[1]));
        RestRequest request = new RestRequest(method, parts[0], query, headers,
                new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)),
                new UserInfo("admin", "", List.of("system:masters")));
        try {
            RestResponse response = assembly.handler().handle(request);
            byte[] data = switch (response.body()) {
                case RestResponse.Bytes bytes -> bytes.data();
                case RestResponse.Encoded encoded -> {
                    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
                    encoded.writer().writeTo(out);
                    yield out.toByteArray();
                }
                case RestResponse.Stream stream -> throw new IllegalStateException("a stream: " + path);
            };
            String text = new String(data, StandardCharsets.UTF_8);
            JsonNode json = text.startsWith("{") ? Json.MAPPER.readTree(text) : Json.object();
            return new Reply(response.status(), json, text);
        } catch (ApiException e) {
            ObjectNode status = Status.of(e);
            return new Reply(e.code(), status, status.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Creates an object from YAML-ish JSON at a collection path; fails the test on error. */
    JsonNode create(String collection, String json) {
        Reply reply = post(collection, json);
        if (reply.code() != 201) {
            throw new AssertionError("create failed: " + reply.text());
        }
        return reply.body();
    }

    @Override
    public void close() throws Exception {
        assembly.close();
    }
}

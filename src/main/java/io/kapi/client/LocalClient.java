package io.kapi.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.endpoint.RestRequest;
import io.kapi.endpoint.RestResponse;
import io.kapi.endpoint.codec.TreeBody;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.Json;
import io.kapi.machinery.Status;
import io.kapi.request.RequestContext;
import io.kapi.request.RequestInfo;
import io.kapi.user.UserInfo;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An API client inside the server, acting as one identity through the {@link Loopback}: what the
 * standalone controllers and bootstrap hooks use, so authorization and admission apply to them as to
 * kube-controller-manager. Errors come back as the {@link ApiException} the Status describes.
 */
public final class LocalClient {

    private final Loopback loopback;
    private final UserInfo user;
    private final String userAgent;

    LocalClient(Loopback loopback, UserInfo user, String userAgent) {
        this.loopback = loopback;
        this.user = user;
        this.userAgent = userAgent;
    }

    /**
     * The client of one resource.
     *
     * @throws IllegalStateException when the server does not serve it
     */
    public ResourceClient resource(GroupVersionResource gvr) {
        var resource = loopback.resources().apply(gvr)
                .orElseThrow(() -> new IllegalStateException("not served: " + gvr));
        return new ResourceClient(this, resource);
    }

    public ResourceClient resource(String group, String version, String plural) {
        return resource(new GroupVersionResource(group, version, plural));
    }

    /**
     * The discovery document of one group version ({@code APIResourceList}), as a RESTMapper reads it to
     * map a kind to its resource; empty when the server does not serve that group version.
     */
    public Optional<ObjectNode> discovery(String apiVersion) {
        String path = apiVersion.contains("/") ? "/apis/" + apiVersion : "/api/" + apiVersion;
        try {
            return Optional.of(object(send("GET", path, Map.of(), null, null)));
        } catch (ApiException e) {
            if (e.reason() == io.kapi.machinery.StatusReason.NOT_FOUND) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /**
     * Sends one request; returns the response body (null for none).
     *
     * @throws ApiException for an error response
     */
    JsonNode send(String method, String path, Map<String, String> params, String contentType, JsonNode body) {
        return decode(exchange(method, path, params, contentType, body));
    }

    /**
     * Sends one request and reads only an error's body: for a caller that needs no more than the
     * request's success.
     *
     * @throws ApiException for an error response
     */
    void sendForStatus(String method, String path, Map<String, String> params, String contentType, JsonNode body) {
        exchange(method, path, params, contentType, body);
    }

    private RestResponse exchange(String method, String path, Map<String, String> params, String contentType,
                                  JsonNode body) {
        Map<String, List<String>> query = new LinkedHashMap<>();
        params.forEach((k, v) -> query.put(k, List.of(v)));
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("accept", List.of("application/json"));
        headers.put("user-agent", List.of(userAgent));
        if (contentType != null) {
            headers.put("content-type", List.of(contentType));
        }
        // the tree itself, not its JSON: the API's decoder takes it as it would have parsed the JSON
        InputStream content = body == null ? InputStream.nullInputStream() : new TreeBody(body);
        RequestContext identity = RequestContext.of(RequestInfo.parse(method, path, query), null, null, userAgent)
                .withUser(user);
        RestResponse response = loopback.chain().apply(new RestRequest(method, path, query, headers,
                content, identity));
        if (response.status() >= 400) {
            JsonNode answer = decode(response);
            throw Status.toException(answer == null ? Json.object() : answer, response.status());
        }
        return response;
    }

    private static JsonNode decode(RestResponse response) {
        byte[] data;
        try {
            data = switch (response.body()) {
                case RestResponse.Bytes bytes -> bytes.data();
                case RestResponse.Encoded encoded -> {
                    // a list written as it is encoded: in process, written to memory
                    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
                    encoded.writer().writeTo(out);
                    yield out.toByteArray();
                }
                case RestResponse.Stream stream -> new byte[0];
            };
            return data.length == 0 ? null : Json.MAPPER.readTree(data);
        } catch (IOException e) {
            return null;
        }
    }

    /** A JSON object response; an empty object when there was none. */
    static ObjectNode object(JsonNode answer) {
        return answer instanceof ObjectNode o ? o : Json.object();
    }
}

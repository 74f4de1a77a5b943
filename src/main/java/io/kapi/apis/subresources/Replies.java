package io.kapi.apis.subresources;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.StatusReason;
import io.kapi.machinery.resource.ApiResource;
import java.util.List;

/** Bodies and resources the subresource handlers answer with. */
final class Replies {

    private Replies() {
    }

    /**
     * The Status a create that returns no object answers with ({@code pods/binding},
     * {@code pods/eviction}): kube-apiserver's create handler fills in code 201.
     */
    static ObjectNode created() {
        ObjectNode s = statusHeader();
        s.put("status", "Success");
        s.put("code", 201);
        return s;
    }

    /** A Failure Status a REST storage returns as its result rather than as an error. */
    static ObjectNode failure(String message, int code) {
        ObjectNode s = statusHeader();
        s.put("status", "Failure");
        s.put("message", message);
        s.put("code", code);
        return s;
    }

    private static ObjectNode statusHeader() {
        ObjectNode s = Json.object();
        s.put("kind", "Status");
        s.put("apiVersion", "v1");
        s.putObject("metadata");
        return s;
    }

    /** The resource a subresource's objects are written as, e.g. {@code authentication.k8s.io/v1 TokenRequest}. */
    static ApiResource asKind(ApiResource parent, String group, String version, String kind) {
        return new ApiResource(group, version, parent.name(), "", kind, parent.namespaced(), List.of("create"),
                List.of(), List.of(), List.of());
    }

    /** 400 as kube-apiserver words a body whose name differs from the URL's. */
    static ApiException nameMismatch(String kind) {
        return new ApiException(StatusReason.BAD_REQUEST, "name in URL does not match name in " + kind + " object");
    }
}

package io.kapi.endpoint.openapi;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.GroupVersionKind;
import io.kapi.machinery.Json;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One operation of a path, in a form both the Swagger 2.0 and the OpenAPI 3.0 writer render.
 *
 * @param method lower case HTTP method: get, put, post, delete, patch, options, head
 * @param operationId e.g. {@code listCoreV1NamespacedPod}
 * @param description e.g. {@code list or watch objects of kind Pod}
 * @param action {@code x-kubernetes-action}: get, list, put, post, patch, delete, deletecollection,
 *               watch, watchlist, connect
 * @param gvk {@code x-kubernetes-group-version-kind} of the operation
 * @param tag e.g. {@code core_v1}
 * @param parameters the operation's own parameters (the path's common ones are on the path)
 * @param body the definition of the request body, or null
 * @param bodyRequired whether the body is required
 * @param consumes the request media types
 * @param produces the response media types
 * @param responses status code to response definition name (null for a string or no schema)
 */
record Operation(String method, String operationId, String description, String action, GroupVersionKind gvk,
                 String tag, List<Param> parameters, String body, boolean bodyRequired, List<String> consumes,
                 List<String> produces, Map<String, String> responses) {

    /** A path with its common parameters and its operations. */
    record PathItem(String path, List<Param> parameters, List<Operation> operations) {

        /**
         * The path item as either document writes it: each operation under its method, then the
         * shared parameters; {@code operation} and {@code param} are the writer's own renderings.
         */
        ObjectNode toJson(Function<Operation, ObjectNode> operation, Function<Param, ObjectNode> param) {
            ObjectNode node = Json.object();
            for (Operation op : operations) {
                node.set(op.method(), operation.apply(op));
            }
            if (!parameters.isEmpty()) {
                ArrayNode params = node.putArray("parameters");
                parameters.forEach(p -> params.add(param.apply(p)));
            }
            return node;
        }
    }

    /**
     * A parameter.
     *
     * @param in {@code path}, {@code query} or {@code body}
     * @param type {@code string}, {@code integer} or {@code boolean}
     */
    record Param(String name, String in, String type, boolean required, String description) {
    }
}

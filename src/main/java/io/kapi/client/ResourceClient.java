package io.kapi.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.Json;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.registry.DeleteOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The verbs on one resource, as a typed client of kube's would offer them, for the server's own
 * components. Objects are JSON trees; {@code namespace} is ignored for cluster-scoped resources.
 */
public final class ResourceClient {

    private final LocalClient client;
    private final ApiResource resource;

    ResourceClient(LocalClient client, ApiResource resource) {
        this.client = client;
        this.resource = resource;
    }

    public ApiResource resource() {
        return resource;
    }

    /** @throws ApiException NotFound */
    public ObjectNode get(String namespace, String name) {
        return LocalClient.object(client.send("GET", path(namespace, name, ""), Map.of(), null, null));
    }

    /** GET of one of the object's subresources ({@code scale}, {@code status}). @throws ApiException NotFound */
    public ObjectNode get(String namespace, String name, String subresource) {
        return LocalClient.object(client.send("GET", path(namespace, name, subresource), Map.of(), null, null));
    }

    /**
     * A patch of {@code patchType} (its content type, e.g. {@code application/apply-patch+yaml}) to the object or
     * one of its subresources ({@code subresource} "" for the object), with the query's {@code params}
     * ({@code fieldManager}, {@code force}).
     */
    public ObjectNode patch(String namespace, String name, String subresource, String patchType,
            Map<String, String> params, ObjectNode patch) {
        return LocalClient.object(client.send("PATCH", path(namespace, name, subresource), params, patchType, patch));
    }

    public Optional<ObjectNode> find(String namespace, String name) {
        try {
            return Optional.of(get(namespace, name));
        } catch (ApiException e) {
            if (e.reason() == StatusReason.NOT_FOUND) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** Every object of {@code namespace} ("" for all namespaces), in one consistent list. */
    public List<ObjectNode> list(String namespace) {
        JsonNode list = client.send("GET", path(namespace, "", ""), Map.of(), null, null);
        List<ObjectNode> items = new ArrayList<>();
        String apiVersion = resource.gvk().apiVersion();
        for (JsonNode item : list.path("items")) {
            ObjectNode o = (ObjectNode) item;
            o.put("apiVersion", apiVersion);
            o.put("kind", resource.kind());
            items.add(o);
        }
        return items;
    }

    /** @throws ApiException AlreadyExists, Invalid, Forbidden (admission) */
    public ObjectNode create(String namespace, ObjectNode object) {
        return LocalClient.object(client.send("POST", path(namespace, "", ""), Map.of(), "application/json", object));
    }

    /**
     * POST of {@code object} to one of an object's subresources ({@code binding}, {@code eviction}), without
     * reading the answer (a Status).
     *
     * @throws ApiException NotFound, Conflict, Forbidden
     */
    public void create(String namespace, String name, String subresource, ObjectNode object) {
        client.sendForStatus("POST", path(namespace, name, subresource), Map.of(), "application/json", object);
    }

    /** As {@link #create}, without reading the created object back (a bootstrap hook's writes). */
    public void createOnly(String namespace, ObjectNode object) {
        client.sendForStatus("POST", path(namespace, "", ""), Map.of(), "application/json", object);
    }

    /** PUT of the object at its name; its resourceVersion, if set, is the precondition. */
    public ObjectNode update(ObjectNode object) {
        ObjectMeta meta = ObjectMeta.of(object);
        return LocalClient.object(client.send("PUT", path(meta.namespace(), meta.name(), ""), Map.of(),
                "application/json", object));
    }

    /** PUT of the object to one of its subresources ({@code status}, {@code finalize}). */
    public ObjectNode update(ObjectNode object, String subresource) {
        ObjectMeta meta = ObjectMeta.of(object);
        return LocalClient.object(client.send("PUT", path(meta.namespace(), meta.name(), subresource), Map.of(),
                "application/json", object));
    }

    /** A merge patch (RFC 7386), retried by the server until it applies. */
    public ObjectNode mergePatch(String namespace, String name, ObjectNode patch) {
        return LocalClient.object(client.send("PATCH", path(namespace, name, ""), Map.of(),
                "application/merge-patch+json", patch));
    }

    /** @return whether the object is gone (false: it waits for finalizers or a grace period) */
    public boolean delete(String namespace, String name, DeleteOptions options) {
        ObjectNode body = Json.object();
        body.put("apiVersion", "v1");
        body.put("kind", "DeleteOptions");
        ObjectNode pre = Json.object();
        if (options.preconditionUid() != null) {
            pre.put("uid", options.preconditionUid());
        }
        if (options.preconditionResourceVersion() != null) {
            pre.put("resourceVersion", options.preconditionResourceVersion());
        }
        if (!pre.isEmpty()) {
            body.set("preconditions", pre);
        }
        if (options.propagationPolicy() != null) {
            body.put("propagationPolicy", options.propagationPolicy());
        }
        if (options.gracePeriodSeconds() != null) {
            body.put("gracePeriodSeconds", options.gracePeriodSeconds());
        }
        JsonNode answer = client.send("DELETE", path(namespace, name, ""), Map.of(), "application/json", body);
        return answer == null || answer.path("kind").asText().equals("Status");
    }

    private String path(String namespace, String name, String subresource) {
        StringBuilder b = new StringBuilder(resource.group().isEmpty() ? "/api/" : "/apis/" + resource.group() + "/");
        b.append(resource.version());
        if (resource.namespaced() && namespace != null && !namespace.isEmpty()) {
            b.append("/namespaces/").append(namespace);
        }
        b.append('/').append(resource.name());
        if (!name.isEmpty()) {
            b.append('/').append(name);
        }
        if (!subresource.isEmpty()) {
            b.append('/').append(subresource);
        }
        return b.toString();
    }
}

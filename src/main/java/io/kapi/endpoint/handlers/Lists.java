package io.kapi.endpoint.handlers;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.registry.ListResult;
import java.util.List;

/** Builds the {@code {Kind}List} objects list and deletecollection answer with. */
public final class Lists {

    private Lists() {
    }

    public static ObjectNode of(ApiResource resource, ListResult page) {
        ObjectNode list = of(resource, page.items());
        ObjectNode meta = (ObjectNode) list.get("metadata");
        meta.put("resourceVersion", page.resourceVersion());
        if (page.continueToken() != null) {
            meta.put("continue", page.continueToken());
        }
        if (page.remainingItemCount() != null) {
            meta.put("remainingItemCount", page.remainingItemCount());
        }
        return list;
    }

    /** A list of built-in objects; items carry no apiVersion/kind, as kube-apiserver encodes them. */
    public static ObjectNode of(ApiResource resource, List<ObjectNode> items) {
        ObjectNode list = Json.object();
        list.put("kind", resource.kind() + "List");
        list.put("apiVersion", resource.gvk().apiVersion());
        list.putObject("metadata");
        ArrayNode array = list.putArray("items");
        for (ObjectNode item : items) {
            item.remove("apiVersion");
            item.remove("kind");
            array.add(item);
        }
        return list;
    }
}

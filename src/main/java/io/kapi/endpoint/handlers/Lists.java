package io.kapi.endpoint.handlers;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import io.kapi.machinery.resource.ApiResource;
import io.kapi.registry.ListResult;
import io.kapi.registry.ResourceStore;
import java.util.List;

/** Builds the {@code {Kind}List} objects list and deletecollection answer with. */
public final class Lists {

    private Lists() {
    }

    /**
     * The list of a page.
     *
     * @param typedItems whether items keep their {@code apiVersion} and {@code kind}: kube-apiserver
     *        encodes custom resources (unstructured objects) with them, built-ins without
     */
    public static ObjectNode of(ApiResource resource, ListResult page, boolean typedItems) {
        ObjectNode list = of(resource, page.items(), typedItems);
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

    /**
     * A list of {@code items}, which it does not change (they may be the watch cache's); see
     * {@link #of(ApiResource, ListResult, boolean)} for {@code typedItems}.
     */
    public static ObjectNode of(ApiResource resource, List<ObjectNode> items, boolean typedItems) {
        ObjectNode list = Json.object();
        list.put("kind", resource.kind() + "List");
        list.put("apiVersion", resource.gvk().apiVersion());
        list.putObject("metadata");
        ArrayNode array = list.putArray("items");
        for (ObjectNode item : items) {
            array.add(typedItems ? item : untyped(item));
        }
        return list;
    }

    /** The item without {@code apiVersion} and {@code kind}: a shallow copy when it has them. */
    private static ObjectNode untyped(ObjectNode item) {
        if (!item.has("apiVersion") && !item.has("kind")) {
            return item;
        }
        ObjectNode copy = Json.object();
        item.properties().forEach(e -> {
            if (!e.getKey().equals("apiVersion") && !e.getKey().equals("kind")) {
                copy.set(e.getKey(), e.getValue());
            }
        });
        return copy;
    }

    /** Whether the lists of the resource {@code store} serves keep their items' types (custom resources). */
    public static boolean typedItems(ResourceStore store) {
        return store != null && store.definition().custom() != null;
    }
}

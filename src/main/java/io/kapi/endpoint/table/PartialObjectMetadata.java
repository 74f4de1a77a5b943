package io.kapi.endpoint.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;
import java.util.List;

/**
 * The metadata-only views of objects a client asks for with
 * {@code Accept: application/json;as=PartialObjectMetadata[List];v=v1;g=meta.k8s.io} (the garbage collector,
 * namespace controller and {@code kubectl get} of metadata use them), as kube-apiserver's
 * {@code meta.AsPartialObjectMetadata}: kind, apiVersion and the whole {@code metadata}, managed fields
 * included.
 */
public final class PartialObjectMetadata {

    public static final String KIND = "PartialObjectMetadata";
    public static final String LIST_KIND = "PartialObjectMetadataList";

    private PartialObjectMetadata() {
    }

    /** The {@code PartialObjectMetadata} of {@code object}; its metadata is copied, the object is not changed. */
    public static ObjectNode of(JsonNode object, MetaVersion version) {
        ObjectNode partial = Json.object();
        partial.put("kind", KIND);
        partial.put("apiVersion", version.apiVersion());
        JsonNode meta = object.get("metadata");
        partial.set("metadata", meta instanceof ObjectNode m ? m.deepCopy() : Json.object());
        return partial;
    }

    /**
     * The {@code PartialObjectMetadataList} of a list's items, with the list's resourceVersion, continue and
     * remainingItemCount. An empty list has {@code items: []} (kube writes {@code null}; clients take both).
     */
    public static ObjectNode list(List<? extends JsonNode> items, ListMeta listMeta, MetaVersion version) {
        ObjectNode list = Json.object();
        list.put("kind", LIST_KIND);
        list.put("apiVersion", version.apiVersion());
        list.set("metadata", listMeta.toJson());
        ArrayNode out = list.putArray("items");
        for (JsonNode item : items) {
            out.add(of(item, version));
        }
        return list;
    }
}

package io.kapi.endpoint.table;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;

/**
 * The list metadata a Table or PartialObjectMetadataList carries over from the list it renders.
 *
 * @param resourceVersion the list's resource version, or null
 * @param continueToken the {@code continue} token of a paged list, or null
 * @param remainingItemCount the estimate of items after this page, or null
 */
public record ListMeta(String resourceVersion, String continueToken, Long remainingItemCount) {

    public static final ListMeta EMPTY = new ListMeta(null, null, null);

    /** The {@code metadata} of a Table or list: only the fields that are set, like Go's omitempty. */
    ObjectNode toJson() {
        ObjectNode meta = Json.object();
        if (resourceVersion != null && !resourceVersion.isEmpty()) {
            meta.put("resourceVersion", resourceVersion);
        }
        if (continueToken != null && !continueToken.isEmpty()) {
            meta.put("continue", continueToken);
        }
        if (remainingItemCount != null) {
            meta.put("remainingItemCount", remainingItemCount);
        }
        return meta;
    }
}

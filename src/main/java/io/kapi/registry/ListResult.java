package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.storage.cache.CachedObject;
import io.kapi.storage.cache.SharedFrames;
import java.util.List;

/**
 * One page of a list.
 *
 * @param items the objects, each with its resourceVersion set
 * @param resourceVersion the revision the list was read at
 * @param continueToken the token for the next page, or null on the last page
 * @param remainingItemCount how many objects follow this page, or null when not known or last page
 * @param encodings the items' shared encodings, item by item, when the items are the watch cache's own
 *     objects (see {@link CachedObject#encodings}); null otherwise
 */
public record ListResult(List<ObjectNode> items, String resourceVersion, String continueToken,
                         Long remainingItemCount, List<SharedFrames> encodings) {

    /** A page whose items have no shared encodings. */
    public ListResult(List<ObjectNode> items, String resourceVersion, String continueToken, Long remainingItemCount) {
        this(items, resourceVersion, continueToken, remainingItemCount, null);
    }
}

package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * One page of a list.
 *
 * @param items the objects, each with its resourceVersion set
 * @param resourceVersion the revision the list was read at
 * @param continueToken the token for the next page, or null on the last page
 * @param remainingItemCount how many objects follow this page, or null when not known or last page
 */
public record ListResult(List<ObjectNode> items, String resourceVersion, String continueToken,
                         Long remainingItemCount) {
}

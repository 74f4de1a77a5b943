package io.kapi.machinery.apply;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The outcome of a server-side apply.
 *
 * @param object the object to store (a new tree; includes {@code metadata.managedFields}); when the
 *     apply changed nothing it equals the live object and need not be written
 * @param created whether there was no live object (the handler creates instead of updating)
 * @param changed whether the object's content (managedFields aside) differs from the live one
 */
public record ApplyResult(ObjectNode object, boolean created, boolean changed) {
}

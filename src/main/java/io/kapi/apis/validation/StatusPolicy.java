package io.kapi.apis.validation;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.Json;

/**
 * How a kind's main resource treats {@code status}, as its kube-apiserver strategy does: {@link #initial}
 * replaces whatever status a create carries (kube's {@code PrepareForCreate} resetting it), and an update of
 * the main resource keeps the stored status (kube's {@code PrepareForUpdate}: {@code new.Status = old.Status});
 * only the {@code /status} subresource changes it.
 */
public interface StatusPolicy {

    /** A new object starts with an empty status, {@code {}}. */
    StatusPolicy EMPTY = object -> Json.NODES.objectNode();

    /** The status a new object starts with, computed from the (defaulted) object; never null. */
    ObjectNode initial(ObjectNode object);
}

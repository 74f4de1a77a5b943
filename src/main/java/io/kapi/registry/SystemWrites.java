package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.request.RequestContext;
import io.kapi.request.Verb;
import io.kapi.user.SystemUsers;
import java.util.function.UnaryOperator;

/**
 * Writes the API server makes directly on a store as {@code system:apiserver}, outside any request
 * (allocators recording what they hand out, their repair loops): the store's pipeline runs with admission,
 * without the decoding checks of a client's body.
 */
public final class SystemWrites {

    private SystemWrites() {
    }

    public static ObjectNode create(ResourceStore store, String namespace, ObjectNode object) {
        return store.create(RequestContext.internal(SystemUsers.APISERVER, Verb.CREATE), namespace, object,
                Write.internal());
    }

    /**
     * Updates through {@code change}, which gets the current object (a private copy) and returns the
     * wanted one (or its argument for "nothing to do"); run again on a newer object after a lost race.
     *
     * @throws ApiException NotFound when the object does not exist
     */
    public static ObjectNode update(ResourceStore store, String namespace, String name, UnaryOperator<ObjectNode> change) {
        return store.update(RequestContext.internal(SystemUsers.APISERVER, Verb.UPDATE), namespace, name,
                current -> changed(store, name, current, change), Write.internal()).object();
    }

    /** As {@link #update} for the {@code status} subresource. */
    public static ObjectNode updateStatus(ResourceStore store, String namespace, String name,
                                          UnaryOperator<ObjectNode> change) {
        return store.update(RequestContext.internal(SystemUsers.APISERVER, Verb.UPDATE), namespace, name,
                current -> changed(store, name, current, change), Write.subresource("status", null)).object();
    }

    public static DeleteResult delete(ResourceStore store, String namespace, String name, DeleteOptions options) {
        return store.delete(RequestContext.internal(SystemUsers.APISERVER, Verb.DELETE), namespace, name, options);
    }

    private static ObjectNode changed(ResourceStore store, String name, ObjectNode current,
                                      UnaryOperator<ObjectNode> change) {
        if (current == null) {
            throw ApiException.notFound(store.resource().gvr(), name);
        }
        ObjectNode wanted = change.apply(current.deepCopy());
        return wanted == null ? current : wanted;
    }
}

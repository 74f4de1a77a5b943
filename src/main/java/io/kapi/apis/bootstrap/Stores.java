package io.kapi.apis.bootstrap;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.client.ResourceClient;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import java.util.function.UnaryOperator;

/**
 * The few client operations the bootstrap hooks need, written for several replicas racing on the
 * same objects: a create that loses to another replica is fine, an update that loses is read again
 * and retried, as kube's controllers do with {@code RetryOnConflict}.
 */
final class Stores {

    /** kube's {@code retry.DefaultRetry}: updates that keep losing to concurrent writers give up after this many. */
    private static final int UPDATE_ATTEMPTS = 5;

    private Stores() {
    }

    /** Creates {@code object}; returns false when it already exists (created by someone else meanwhile). */
    static boolean createIfMissing(ResourceClient client, ObjectNode object) {
        try {
            client.create(ObjectMeta.of(object).namespace(), object.deepCopy());
            return true;
        } catch (ApiException e) {
            if (e.reason() == StatusReason.ALREADY_EXISTS) {
                return false;
            }
            throw e;
        }
    }

    /**
     * Reads the object and applies {@code change} to a copy; writes it (with the read resourceVersion as
     * precondition) when the change returns a different object, reading again after a conflict.
     * {@code change} returns its argument unchanged (or {@code null}) for "nothing to do". Returns
     * whether anything was written.
     *
     * @throws ApiException NotFound when the object does not exist, Conflict after repeated losses
     */
    static boolean update(ResourceClient client, String namespace, String name, UnaryOperator<ObjectNode> change) {
        return update(client, namespace, name, "", change);
    }

    /** As {@link #update(ResourceClient, String, String, UnaryOperator)}, of the {@code status} subresource. */
    static boolean updateStatus(ResourceClient client, String namespace, String name, UnaryOperator<ObjectNode> change) {
        return update(client, namespace, name, "status", change);
    }

    private static boolean update(ResourceClient client, String namespace, String name, String subresource,
                                  UnaryOperator<ObjectNode> change) {
        for (int attempt = 1; ; attempt++) {
            ObjectNode current = client.get(namespace, name);
            ObjectNode wanted = change.apply(current.deepCopy());
            if (wanted == null || wanted.equals(current)) {
                return false;
            }
            try {
                if (subresource.isEmpty()) {
                    client.update(wanted);
                } else {
                    client.update(wanted, subresource);
                }
                return true;
            } catch (ApiException e) {
                if (e.reason() != StatusReason.CONFLICT || attempt == UPDATE_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }
}

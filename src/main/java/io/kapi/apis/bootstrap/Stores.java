package io.kapi.apis.bootstrap;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.client.ResourceClient;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.ObjectMeta;
import io.kapi.machinery.StatusReason;
import java.util.HashMap;
import java.util.Map;
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
            client.createOnly(ObjectMeta.of(object).namespace(), object.deepCopy());
            return true;
        } catch (ApiException e) {
            if (e.reason() == StatusReason.ALREADY_EXISTS) {
                return false;
            }
            throw e;
        }
    }

    /**
     * Creates {@code object}; returns what the server stored (its resourceVersion, defaults), or null when
     * it already exists (created by someone else meanwhile).
     */
    static ObjectNode createdObject(ResourceClient client, ObjectNode object) {
        try {
            return client.create(ObjectMeta.of(object).namespace(), object.deepCopy());
        } catch (ApiException e) {
            if (e.reason() == StatusReason.ALREADY_EXISTS) {
                return null;
            }
            throw e;
        }
    }

    /**
     * Makes {@code wanted} exist and agree with {@code change}, given {@code listed}, the copy a list
     * found under its name (null when the list found none): a missing object is created; a listed one
     * that {@code change} leaves as it is costs no request (a restart finds the bootstrap objects as
     * it left them); otherwise the object is read afresh and updated ({@link #update}). A create that
     * finds the object made meanwhile reconciles it instead. Returns whether anything was written.
     */
    static boolean ensure(ResourceClient client, ObjectNode wanted, ObjectNode listed, UnaryOperator<ObjectNode> change) {
        if (listed == null) {
            if (createIfMissing(client, wanted)) {
                return true;
            }
        } else {
            ObjectNode changed = change.apply(listed.deepCopy());
            if (changed == null || changed.equals(listed)) {
                return false;
            }
        }
        ObjectMeta meta = ObjectMeta.of(wanted);
        return update(client, meta.namespace(), meta.name(), change);
    }

    /** Every object of {@code client} (all namespaces) by {@code namespace/name}, for {@link #ensure}. */
    static Map<String, ObjectNode> listed(ResourceClient client) {
        Map<String, ObjectNode> byKey = new HashMap<>();
        for (ObjectNode o : client.list("")) {
            byKey.put(key(ObjectMeta.of(o)), o);
        }
        return byKey;
    }

    /** The key of {@link #listed} for an object's metadata. */
    static String key(ObjectMeta meta) {
        return key(meta.namespace(), meta.name());
    }

    /** The key of {@link #listed} for a name ({@code ""} as the namespace of cluster-scoped objects). */
    static String key(String namespace, String name) {
        return namespace + "/" + name;
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
        return update(client, namespace, name, "", null, change);
    }

    /** As {@link #update(ResourceClient, String, String, UnaryOperator)}, of the {@code status} subresource. */
    static boolean updateStatus(ResourceClient client, String namespace, String name, UnaryOperator<ObjectNode> change) {
        return updateStatus(client, namespace, name, null, change);
    }

    /**
     * As {@link #updateStatus(ResourceClient, String, String, UnaryOperator)}, starting from {@code known}
     * when it is not null (the object as a write just returned it) instead of reading it first; a conflict
     * reads it afresh.
     */
    static boolean updateStatus(ResourceClient client, String namespace, String name, ObjectNode known,
                                UnaryOperator<ObjectNode> change) {
        return update(client, namespace, name, "status", known, change);
    }

    private static boolean update(ResourceClient client, String namespace, String name, String subresource,
                                  ObjectNode known, UnaryOperator<ObjectNode> change) {
        for (int attempt = 1; ; attempt++) {
            ObjectNode current = attempt == 1 && known != null ? known : client.get(namespace, name);
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

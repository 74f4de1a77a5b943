package io.kapi.harness;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.registry.DeleteOptions;
import io.kapi.registry.DeleteResult;
import io.kapi.registry.ListOptions;
import io.kapi.registry.ResourceStore;
import io.kapi.registry.UpdateResult;
import io.kapi.registry.Write;
import io.kapi.request.RequestContext;
import io.kapi.request.Verb;
import java.util.List;

/**
 * Direct calls of a {@link ResourceStore}'s writes, as store-level tests make them: an admin's context,
 * the object taken as given (no decoding checks, managed fields as sent), the dry-run flag of the call.
 */
public final class StoreCalls {

    private StoreCalls() {
    }

    private static RequestContext ctx(Verb verb, boolean dryRun) {
        return RequestContext.internal(ApiHarness.ADMIN, verb).withWriteOptions(dryRun, null, null);
    }

    public static ObjectNode create(ResourceStore store, String namespace, ObjectNode object, boolean dryRun) {
        return store.create(ctx(Verb.CREATE, dryRun), namespace, object, Write.internal());
    }

    /** PUT semantics: the object replaces the stored one; its resourceVersion, if any, must match. */
    public static UpdateResult update(ResourceStore store, String namespace, String name, ObjectNode object,
                                      boolean dryRun) {
        return store.update(ctx(Verb.UPDATE, dryRun), namespace, name, current -> object.deepCopy(), Write.internal());
    }

    /** A PUT to {@code status}. */
    public static ObjectNode updateStatus(ResourceStore store, String namespace, String name, ObjectNode object,
                                          boolean dryRun) {
        return store.update(ctx(Verb.UPDATE, dryRun), namespace, name, current -> {
            if (current == null) {
                throw io.kapi.machinery.ApiException.notFound(store.resource().gvr(), name);
            }
            return object.deepCopy();
        }, Write.subresource("status", null)).object();
    }

    public static DeleteResult delete(ResourceStore store, String namespace, String name, DeleteOptions options) {
        return store.delete(ctx(Verb.DELETE, options.dryRun()), namespace, name, options);
    }

    /** The namespaces every cluster has, created directly in the registry (for store-level tests). */
    public static void systemNamespaces(io.kapi.registry.Registry registry) {
        for (String name : io.kapi.apis.SystemNamespaces.NAMES) {
            ObjectNode ns = io.kapi.machinery.Json.object();
            ns.put("apiVersion", "v1");
            ns.put("kind", "Namespace");
            ns.putObject("metadata").put("name", name);
            try {
                create(registry.namespaces(), "", ns, false);
            } catch (io.kapi.machinery.ApiException e) {
                if (e.reason() != io.kapi.machinery.StatusReason.ALREADY_EXISTS) {
                    throw e;
                }
            }
        }
    }

    public static List<ObjectNode> deleteCollection(ResourceStore store, String namespace, ListOptions list,
                                                    DeleteOptions options) {
        return store.deleteCollection(ctx(Verb.DELETECOLLECTION, options.dryRun()), namespace, list, options);
    }
}

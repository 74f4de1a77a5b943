package io.kapi.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.ApiException;
import io.kapi.machinery.DeepStack;
import io.kapi.machinery.GroupVersionResource;
import io.kapi.machinery.ObjectMeta;
import io.kapi.request.RequestContext;
import io.kapi.storage.KeyValue;
import io.kapi.storage.StorageException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Deletion in a {@link ResourceStore}, as kube-apiserver's generic store: preconditions, admission,
 * the strategy's plan (immediate, graceful, held), the garbage collector's propagation finalizers, and
 * either a delete or an update that marks the object as being deleted; both compare-and-swap and run
 * again on the newer object when another write wins. Every stage sees the stored object (storage
 * version); what is answered is converted to the served version.
 */
final class Deletes {

    private final ResourceStore store;
    private final Clock clock;

    Deletes(ResourceStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    DeleteResult delete(RequestContext ctx, String namespace, String name, DeleteOptions options) {
        String key = store.keys().key(store.resource().namespaced() ? namespace : "", name);
        for (int attempt = 1; ; attempt++) {
            KeyValue current = store.read(key, name);
            if (current == null) {
                throw ApiException.notFound(store.gvr(), name);
            }
            Optional<DeleteResult> result = deleteOnce(ctx, key, current, options);
            if (result.isPresent()) {
                DeleteResult done = result.get();
                return done.object() == null ? done
                        : new DeleteResult(store.served().served(done.object()), done.deleted());
            }
            ResourceStore.checkDeadline(ctx, attempt);
        }
    }

    /** One pass; empty when a concurrent write changed the object first. */
    private Optional<DeleteResult> deleteOnce(RequestContext ctx, String key, KeyValue current, DeleteOptions options) {
        ObjectNode object;
        try {
            object = store.codec().decode(current);
        } catch (ApiException corrupt) {
            if (!options.ignoreStoreReadErrors()) {
                throw corrupt;
            }
            return unsafeDelete(key, current);
        }
        if (!DeepStack.onDeepStack() && DeepStack.isDeep(object)) {
            // admission (policies' CEL, webhooks) and the strategy walk the object
            return DeepStack.call(() -> deleteOnce(ctx, key, current, options));
        }
        ObjectMeta meta = ObjectMeta.of(object);
        checkPreconditions(meta, options);
        var attributes = store.deleteAttributes(ctx.withWriteOptions(options.dryRun(), ctx.fieldManager(),
                ctx.fieldValidation()), object.deepCopy());
        store.admission().admit(attributes);
        store.admission().validate(attributes);
        Deletion plan = store.strategy().beforeDelete(object, options);
        boolean alreadyDeleting = !meta.deletionTimestamp().isEmpty();
        if (!alreadyDeleting) {
            addPropagationFinalizer(meta, options.propagationPolicy());
        }
        try {
            if (meta.hasFinalizers() || !(plan instanceof Deletion.Immediate)) {
                return Optional.of(alreadyDeleting ? new DeleteResult(object, false)
                        : markDeleting(key, current, object, plan, options.dryRun()));
            }
            if (options.dryRun()) {
                return Optional.of(new DeleteResult(object, true));
            }
            store.storage().delete(key, current.modRevision());
        } catch (StorageException.Conflict | StorageException.KeyNotFound e) {
            return Optional.empty();
        } catch (StorageException e) {
            throw StorageErrors.interpret(e, store.gvr(), meta.name());
        }
        store.strategy().afterDelete(object);
        return Optional.of(new DeleteResult(object, true));
    }

    /**
     * kube's corrupt-object deleter: the value that cannot be read is removed as it is, with no finalizer,
     * admission or strategy involved (none of them can see it). The answer names no object.
     */
    private Optional<DeleteResult> unsafeDelete(String key, KeyValue current) {
        try {
            store.storage().delete(key, current.modRevision());
        } catch (StorageException.Conflict | StorageException.KeyNotFound e) {
            return Optional.empty();
        } catch (StorageException e) {
            throw StorageErrors.interpret(e, store.gvr(), key.substring(key.lastIndexOf('/') + 1));
        }
        return Optional.of(new DeleteResult(null, true));
    }

    /** Deletes every object a list selects; returns them as deleted (or as marked for deletion). */
    List<ObjectNode> deleteCollection(RequestContext ctx, String namespace, ListOptions listOptions,
                                      DeleteOptions options) {
        List<ObjectNode> deleted = new ArrayList<>();
        for (ObjectNode object : store.list(namespace, listOptions.unpaged()).items()) {
            ObjectMeta meta = ObjectMeta.of(object);
            try {
                deleted.add(delete(ctx, meta.namespace(), meta.name(), options).object());
            } catch (ApiException e) {
                if (e.code() != 404) {
                    throw e;
                }
            }
        }
        return deleted;
    }

    private DeleteResult markDeleting(String key, KeyValue current, ObjectNode object, Deletion plan, boolean dryRun) {
        ObjectMeta meta = ObjectMeta.of(object);
        Instant now = clock.instant();
        switch (plan) {
            case Deletion.Graceful g -> {
                meta.node().put("deletionTimestamp", ObjectMeta.format(now.plusSeconds(g.seconds())));
                meta.node().put("deletionGracePeriodSeconds", g.seconds());
            }
            case Deletion.Held h -> meta.node().put("deletionTimestamp", ObjectMeta.format(now));
            case Deletion.Immediate i -> {
                meta.node().put("deletionTimestamp", ObjectMeta.format(now));
                meta.node().put("deletionGracePeriodSeconds", 0);
            }
        }
        if (dryRun) {
            return new DeleteResult(object, false);
        }
        meta.resourceVersion("");
        KeyValue kv = store.storage().update(key, store.codec().encode(object, key), current.modRevision());
        meta.resourceVersion(Long.toString(kv.modRevision()));
        return new DeleteResult(object, false);
    }

    /** kube-apiserver's finalizers for the garbage collector: {@code orphan} and {@code foregroundDeletion}. */
    private static void addPropagationFinalizer(ObjectMeta meta, String policy) {
        String finalizer = policy == null ? null : switch (policy) {
            case "Orphan" -> "orphan";
            case "Foreground" -> "foregroundDeletion";
            default -> null;
        };
        if (finalizer == null) {
            return;
        }
        ArrayNode finalizers = meta.node().withArray("finalizers");
        for (JsonNode f : finalizers) {
            if (f.asText().equals(finalizer)) {
                return;
            }
        }
        finalizers.add(finalizer);
    }

    /**
     * The preconditions as kube's {@code rest.BeforeDelete} checks them, on the object read (a changed
     * object is read again): a conflict named by the kind, as it words it.
     */
    private void checkPreconditions(ObjectMeta meta, DeleteOptions options) {
        var kind = store.resource().gvk();
        var onKind = new GroupVersionResource(kind.group(), kind.version(), kind.kind());
        if (options.preconditionUid() != null && !options.preconditionUid().equals(meta.uid())) {
            throw ApiException.conflict(onKind, meta.name(), ("the UID in the precondition (%s) does not match the "
                    + "UID in record (%s). The object might have been deleted and then recreated")
                    .formatted(options.preconditionUid(), meta.uid()));
        }
        String rv = options.preconditionResourceVersion();
        if (rv != null && !rv.equals(meta.resourceVersion())) {
            throw ApiException.conflict(onKind, meta.name(), ("the ResourceVersion in the precondition (%s) does not "
                    + "match the ResourceVersion in record (%s). The object might have been modified")
                    .formatted(rv, meta.resourceVersion()));
        }
    }
}

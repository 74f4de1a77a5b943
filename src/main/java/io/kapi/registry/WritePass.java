package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.admission.Operation;
import io.kapi.machinery.FieldError;
import io.kapi.machinery.ObjectMeta;
import io.kapi.request.RequestContext;
import java.util.List;

/**
 * One write as it passes the {@link WriteStages}: what the request brought, the object as the stages
 * have made it so far, and what they learnt on the way. A create and an update are the same pass; an
 * update has the stored object it started from ({@link #old}), a create none. Each attempt of an update
 * is a new pass (the store runs the stages again on the newer object when it loses a race).
 */
final class WritePass {

    final RequestContext ctx;
    final Write write;
    /** The request's namespace ("" for cluster-scoped resources); on update, the stored object's. */
    final String namespace;
    /** The strategy of this write: the resource's, its status strategy, or a subresource's. */
    final Strategy strategy;
    /** The stored object an update starts from, in the storage version; null on create. */
    final ObjectNode old;
    /** {@link #old} in the served version (itself when the store does not convert); null on create. */
    final ObjectNode oldServed;
    /** The stored revision an update starts from (its compare-and-swap precondition); 0 on create. */
    final long revision;

    /** The object being written: in the served version until the conversion stage, stored after it. */
    ObjectNode object;
    /** The required fields the decode stage found missing (in the served version), looked at again at validation. */
    List<FieldError> missing = List.of();
    /** Whether the name was generated from {@code generateName} (a clash then takes another). */
    boolean generatedName;
    /** What the strategy's begin hook holds until the write is stored or given up. */
    Strategy.Finish finish = Strategy.Finish.NOTHING;

    private WritePass(RequestContext ctx, Write write, Strategy strategy, String namespace, ObjectNode object,
                      ObjectNode old, ObjectNode oldServed, long revision) {
        this.ctx = ctx;
        this.write = write;
        this.namespace = namespace;
        this.strategy = strategy;
        this.object = object;
        this.old = old;
        this.oldServed = oldServed;
        this.revision = revision;
    }

    /** A create of {@code object} in {@code namespace} (ignored for cluster-scoped resources). */
    static WritePass create(RequestContext ctx, Write write, Strategy strategy, String namespace, ObjectNode object) {
        return new WritePass(ctx, write, strategy, namespace, object, null, null, 0);
    }

    /** An update of the stored {@code old} (at {@code revision}) to the transform's {@code object}. */
    static WritePass update(RequestContext ctx, Write write, Strategy strategy, ObjectNode object, ObjectNode old,
                            ObjectNode oldServed, long revision) {
        return new WritePass(ctx, write, strategy, ObjectMeta.of(old).namespace(), object, old, oldServed, revision);
    }

    boolean creating() {
        return old == null;
    }

    Operation operation() {
        return creating() ? Operation.CREATE : Operation.UPDATE;
    }

    ObjectMeta meta() {
        return ObjectMeta.of(object);
    }
}

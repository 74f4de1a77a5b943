package io.kapi.registry;

import java.util.List;

/**
 * How the store treats one write, beyond its object: through which strategy, as which subresource,
 * how its managed fields are tracked, whether its object still needs the schema's decoding checks,
 * and whether a missing object may be created.
 *
 * @param subresource "" for the main resource, e.g. {@code status}
 * @param strategy the subresource's strategy; null for the resource's own (its status strategy on
 *        {@code status})
 * @param tracking how {@code metadata.managedFields} follows the write
 * @param decoded null when the object needs no schema check (the handler built it from a stored
 *        object); otherwise the decoder's duplicate-field messages, checked with the object under the
 *        request's {@code fieldValidation}
 * @param createIfMissing whether an update of a missing object creates it (server-side apply); PUT
 *        also creates where the strategy allows it
 */
public record Write(String subresource, Strategy strategy, Tracking tracking, List<String> decoded,
                    boolean createIfMissing) {

    /** How managed fields follow a write. */
    public enum Tracking {
        /** The request's manager owns what it changed (create, update, non-apply patch). */
        RECORD,
        /** The transform set them (server-side apply). */
        APPLIED,
        /** Kept as stored: the write is the server's own (subresources built from the stored object). */
        KEEP
    }

    /** A write of a body decoded from the request: schema-checked, tracked, main resource. */
    public static Write body(List<String> duplicateFields) {
        return new Write("", null, Tracking.RECORD, List.copyOf(duplicateFields), false);
    }

    /** A write the server makes itself (bootstrap objects, allocations): no checks, managed fields kept. */
    public static Write internal() {
        return new Write("", null, Tracking.KEEP, null, false);
    }

    /** A write the handler built from the stored object through a subresource strategy (null: the store's). */
    public static Write subresource(String name, Strategy strategy) {
        return new Write(name, strategy, Tracking.KEEP, null, false);
    }

    public Write on(String newSubresource, Strategy newStrategy) {
        return new Write(newSubresource, newStrategy, tracking, decoded, createIfMissing);
    }

    public Write applied() {
        return new Write(subresource, strategy, Tracking.APPLIED, decoded, true);
    }

    public Write tracked(Tracking newTracking) {
        return new Write(subresource, strategy, newTracking, decoded, createIfMissing);
    }
}

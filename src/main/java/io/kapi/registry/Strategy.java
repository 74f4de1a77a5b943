package io.kapi.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kapi.machinery.FieldError;
import io.kapi.user.UserInfo;
import java.util.List;

/**
 * What a kind means beyond its schema, as kube-apiserver's {@code RESTCreateStrategy} and
 * {@code RESTUpdateStrategy}: the generic {@link ResourceStore} calls these at fixed points of every
 * write. Implementations must be stateless and thread-safe.
 *
 * <p>Order on create: schema validation (in the handler) → {@link #applyDefaults} →
 * {@link #prepareForCreate} → {@link #beginCreate} → {@link #validate} → {@link #canonicalize} →
 * store → finish. On update: {@link #applyDefaults} → {@link #prepareForUpdate} →
 * {@link #beginUpdate} → {@link #validateUpdate} → {@link #canonicalize} → store → finish.
 */
public interface Strategy {

    /** Fills the kind's defaults in place (kube-apiserver's defaulting on decode). */
    default void applyDefaults(ObjectNode object) {
    }

    /**
     * Takes what a new object holds outside itself (a service's cluster IPs and node ports), as
     * kube-apiserver's {@code BeginCreate} hook; may fill the object (the allocated values). Runs after
     * {@link #prepareForCreate} and name generation, before {@link #validate}. On a dry run nothing
     * may be persisted (check only). The store calls the returned {@link Finish} exactly once, with
     * whether the object was stored, so a failed create releases what this took.
     */
    default Finish beginCreate(ObjectNode object, boolean dryRun) {
        return Finish.NOTHING;
    }

    /**
     * As {@link #beginCreate} for an update of {@code old}: runs after {@link #prepareForUpdate},
     * before {@link #validateUpdate}; the finish releases what the update no longer holds when it was
     * stored, or what this took when it was not.
     */
    default Finish beginUpdate(ObjectNode object, ObjectNode old, boolean dryRun) {
        return Finish.NOTHING;
    }

    /** Completes a {@link #beginCreate} or {@link #beginUpdate}. */
    @FunctionalInterface
    interface Finish {

        Finish NOTHING = stored -> { };

        void finish(boolean stored);
    }

    /** Clears fields the client may not set and sets what the server owns (e.g. status, generation). */
    void prepareForCreate(ObjectNode object);

    /**
     * Records who creates the object, for a kind that keeps it (kube's {@code PrepareForCreate} reads the
     * user from the request): a CertificateSigningRequest's requester. Runs right after
     * {@link #prepareForCreate}.
     */
    default void prepareRequester(ObjectNode object, UserInfo user) {
    }

    /**
     * What an update through the {@code status} subresource may not change besides what the registry keeps
     * (everything but status): a CertificateSigningRequest's conditions, which only its approval changes.
     * Runs after the registry took the rest from {@code old}.
     */
    default void prepareForStatusUpdate(ObjectNode object, ObjectNode old) {
    }

    /** Carries over what the client may not change and bumps the generation on spec changes. */
    void prepareForUpdate(ObjectNode object, ObjectNode old);

    /** Errors of a new object beyond its schema, with kube-apiserver's field paths. */
    List<FieldError> validate(ObjectNode object);

    /** Errors of an update, e.g. changed immutable fields. */
    List<FieldError> validateUpdate(ObjectNode object, ObjectNode old);

    /** Normalises the object just before it is stored. */
    default void canonicalize(ObjectNode object) {
    }

    /** Whether a PUT to a missing object creates it. */
    default boolean allowCreateOnUpdate() {
        return false;
    }

    /** Whether a PUT without metadata.resourceVersion is accepted (last write wins). */
    default boolean allowUnconditionalUpdate() {
        return true;
    }

    /**
     * How a delete of {@code object} proceeds; may adjust the object that is kept while deletion is
     * pending (a namespace turns {@code Terminating}).
     */
    default Deletion beforeDelete(ObjectNode object, DeleteOptions options) {
        return Deletion.IMMEDIATE;
    }

    /**
     * Runs once the object is gone from storage (not on dry runs): releases what the kind holds
     * outside the object, such as a service's cluster IPs and node ports.
     */
    default void afterDelete(ObjectNode object) {
    }

    /** Warnings (sent as {@code Warning} headers) for a new object. */
    default List<String> warningsOnCreate(ObjectNode object) {
        return List.of();
    }
}

package io.kapi.registry;

/**
 * A delete's {@code metav1.DeleteOptions}, reduced to what the store acts on.
 *
 * @param preconditionUid delete only if the object's uid is this (null: any)
 * @param preconditionResourceVersion delete only if the object's resourceVersion is this (null: any)
 * @param dryRun run every check, change nothing
 */
public record DeleteOptions(String preconditionUid, String preconditionResourceVersion, boolean dryRun) {

    public static final DeleteOptions DEFAULT = new DeleteOptions(null, null, false);
}

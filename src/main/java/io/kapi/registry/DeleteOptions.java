package io.kapi.registry;

/**
 * A delete's {@code metav1.DeleteOptions}, reduced to what the store acts on.
 *
 * @param preconditionUid delete only if the object's uid is this (null: any)
 * @param preconditionResourceVersion delete only if the object's resourceVersion is this (null: any)
 * @param dryRun run every check, change nothing
 * @param propagationPolicy {@code Orphan}, {@code Background}, {@code Foreground}, or null for the default
 * @param gracePeriodSeconds the grace period asked for, or null for the object's default
 */
public record DeleteOptions(String preconditionUid, String preconditionResourceVersion, boolean dryRun,
                            String propagationPolicy, Long gracePeriodSeconds) {

    public static final DeleteOptions DEFAULT = new DeleteOptions(null, null, false, null, null);
}

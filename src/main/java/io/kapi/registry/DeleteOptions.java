package io.kapi.registry;

/**
 * A delete's {@code metav1.DeleteOptions}, reduced to what the store acts on.
 *
 * @param preconditionUid delete only if the object's uid is this (null: any)
 * @param preconditionResourceVersion delete only if the object's resourceVersion is this (null: any)
 * @param dryRun run every check, change nothing
 * @param propagationPolicy {@code Orphan}, {@code Background}, {@code Foreground}, or null for the default
 * @param gracePeriodSeconds the grace period asked for, or null for the object's default
 * @param ignoreStoreReadErrors kube's {@code ignoreStoreReadErrorWithClusterBreakingPotential}: an object whose
 *        stored value cannot be decrypted or decoded is removed from storage as it is (finalizers, admission and
 *        the object's own rules skipped); the handler allows it only behind the feature gate and its own verb
 */
public record DeleteOptions(String preconditionUid, String preconditionResourceVersion, boolean dryRun,
                            String propagationPolicy, Long gracePeriodSeconds, boolean ignoreStoreReadErrors) {

    public static final DeleteOptions DEFAULT = new DeleteOptions(null, null, false, null, null);

    /** Options of an ordinary delete (a corrupt object is an error). */
    public DeleteOptions(String preconditionUid, String preconditionResourceVersion, boolean dryRun,
                         String propagationPolicy, Long gracePeriodSeconds) {
        this(preconditionUid, preconditionResourceVersion, dryRun, propagationPolicy, gracePeriodSeconds, false);
    }

    /** These options without the unsafe deletion of corrupt objects (its feature gate is off). */
    public DeleteOptions safe() {
        return ignoreStoreReadErrors
                ? new DeleteOptions(preconditionUid, preconditionResourceVersion, dryRun, propagationPolicy,
                        gracePeriodSeconds) : this;
    }
}
